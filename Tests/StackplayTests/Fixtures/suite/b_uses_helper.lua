local swipe = require "helpers.swipe"
assert(swipe(2) == 4)
