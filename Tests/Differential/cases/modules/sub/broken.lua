return = 1
