local cards = 3
assert(cards == 4, "expected 4 cards, got " .. cards)
