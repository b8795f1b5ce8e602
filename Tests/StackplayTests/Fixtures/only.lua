-- Fixture: with `only` in a file, its other tests are skipped.
test("not focused", function() error("must not run") end)
only("focused", function() expect(1 + 1):to_equal(2) end)
test("not focused either", function() error("must not run") end)
