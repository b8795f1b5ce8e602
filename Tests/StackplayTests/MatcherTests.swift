import Foundation
import Testing

/// Every matcher passes when it holds, shows both sides when it does not, and refuses bad arguments.
@Suite struct MatcherTests {

    // MARK: 3. Matchers

    @Test func everyMatcherPassesWhenItHolds() throws {
        let run = try runScript(
            """
            test("all", function()
              expect(2):to_be_greater_than(1); expect(2):to_be_greater_than_or_equal(2)
              expect(1):to_be_less_than(2); expect(2):to_be_less_than_or_equal(2)
              expect(0.5):to_be_between(0, 1); expect(1):to_be_between(0, 1)
              expect("a card"):to_contain("card"); expect({ "a", { 1 } }):to_contain({ 1 })
              expect({ 1, 2 }):to_have_length(2); expect("abc"):to_have_length(3)
              expect(nil):to_be_nil(); expect("x"):to_be_type("string"); expect("card:7"):to_match("^card:%d+$")
              expect(3):never():to_be_less_than(1); expect({ "a" }):never():to_contain("b")
            end)

            """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasSuffix("1 passed, 0 failed\n"))
    }

    @Test(arguments: [
        (
            "expect(0.5):to_be_greater_than(0.6)",
            "x.lua:1: expected a value greater than 0.6, got 0.5\n  expected: a value greater than 0.6\n    actual: 0.5"
        ),
        (
            "expect(2):to_be_less_than_or_equal(1)",
            "x.lua:1: expected a value <= 1, got 2\n  expected: a value <= 1\n    actual: 2"
        ),
        (
            "expect(1.5):to_be_between(0, 1)",
            "x.lua:1: expected a value between 0 and 1, got 1.5\n  expected: a value between 0 and 1\n    actual: 1.5"
        ),
        (
            "expect('x'):to_be_greater_than(1)",
            "x.lua:1: expected a value greater than 1, got \"x\" (not a number)"
        ),
        (
            "expect({ 'a', 'b' }):to_contain('c')",
            "x.lua:1: expected a list containing \"c\", got { \"a\", \"b\" }\n  expected: a list containing \"c\"\n    actual: { \"a\", \"b\" }"
        ),
        (
            "expect('card a'):to_contain('b')",
            "x.lua:1: expected a string containing \"b\", got \"card a\""
        ),
        (
            "expect({ 1, 2, 3 }):to_have_length(2)",
            "x.lua:1: expected length 2, got length 3\n  expected: length 2\n    actual: length 3: { 1, 2, 3 }"
        ),
        ("expect(0):to_be_nil()", "x.lua:1: expected nil, got 0\n  expected: nil\n    actual: 0"),
        (
            "expect(1):to_be_type('string')",
            "x.lua:1: expected a value of type string, got 1 (a number)\n  expected: a value of type string\n    actual: 1 (number)"
        ),
        ("expect('ab'):to_match('^b')", "x.lua:1: expected a string matching \"^b\", got \"ab\""),
        (
            "expect(nil):never():to_be_nil()",
            "x.lua:1: expected not nil, got nil\n  expected: not nil\n    actual: nil"
        ),
        (
            "local p = 1.5\nexpect(p > 0 and p < 1, 'progress stays in 0...1'):to_be_truthy()",
            "x.lua:2: progress stays in 0...1: expected a truthy value, got false\n  expected: a truthy value (anything but nil and false)\n    actual: false"
        ),
        (
            "expect(0.78181818181818186, 'shortest'):to_equal(1)",
            "x.lua:1: shortest: values differ\n  expected: 1\n    actual: 0.7818181818181819"
        ),
    ])
    func failedMatchersShowTheMessageAndBothSides(script: String, message: String) throws {
        let run = try runScript(script + "\n")
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("stackplay: " + message + "\n"), "\(run.stderr)")
    }

    @Test(arguments: [
        (
            "expect(1):to_be_greater_than('x')",
            "x.lua:1: bad argument #1 to 'to_be_greater_than' (number expected, got string)"
        ),
        (
            "expect(1):to_be_between(2, 1)",
            "x.lua:1: bad argument #2 to 'to_be_between' (the high end 1 is below the low end 2)"
        ),
        (
            "expect(1):to_be_type('strng')",
            "x.lua:1: bad argument #1 to 'to_be_type' (a Lua type name expected"
        ),
        ("expect('a'):to_match('%')", "x.lua:1: bad argument #1 to 'to_match' (malformed pattern \"%\")"),
        (
            "expect(1, 2)",
            "x.lua:1: bad argument #2 to 'expect' (string expected, got number: the second argument is a message; "
                + "to check the first value of a call that returns several, use expect((f(...))))"
        ),
    ])
    func matchersRefuseBadArgumentsAtTheScriptsLine(script: String, message: String) throws {
        let run = try runScript(script + "\n")
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("stackplay: " + message), "\(run.stderr)")
    }
}
