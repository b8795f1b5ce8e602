return { twice = function(x) return 2 * x end, args = { ... } }
