return function(n) return n * 2 end
