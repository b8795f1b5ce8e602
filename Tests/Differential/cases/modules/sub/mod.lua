loads = (loads or 0) + 1
return "sub/mod loaded"
