assert(stackplay.version)
print("passing ran")
