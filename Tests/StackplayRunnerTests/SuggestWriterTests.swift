import Exploration
import StackModel
import Testing

@testable import StackplayRunner

/// The pieces of `mutate --suggest`'s writing that need no process (issue 41): matchers, round
/// numbers, unused locals.
@Suite struct SuggestWriterTests {
    typealias Value = SuggestProbe.Value

    static func number(_ value: Double) -> Value { Value(rank: 4, kind: "number", text: "\(value)") }

    @Test func aWholeNumberIsComparedExactlyAnotherToTheFewestDecimalsTheMutantIsOutsideOf() {
        #expect(SuggestWriter.matcher(Self.number(3), against: Self.number(4)) == ":to_equal(3)")
        #expect(
            SuggestWriter.matcher(Self.number(181.02265842037724), against: Self.number(150))
                == ":to_be_near(181, 1)")
        #expect(
            SuggestWriter.matcher(Self.number(0.8381818181818181), against: Self.number(0.86))
                == ":to_be_near(0.84, 0.01)")
        #expect(
            SuggestWriter.matcher(Self.number(0.6), against: Self.number(0.6857)) == ":to_be_near(0.6, 0.01)")
        let ids = Value(rank: 0, kind: "table", text: "{ \"a\", \"b\" }")
        #expect(SuggestWriter.matcher(ids, against: ids) == ":to_equal { \"a\", \"b\" }")
        #expect(
            SuggestWriter.matcher(Value(rank: 2, kind: "nil", text: "nil"), against: ids) == ":to_be_nil()")
        #expect(
            SuggestWriter.matcher(Value(rank: 7, kind: "present", text: "true"), against: ids)
                == ":never():to_be_nil()")
        #expect(
            SuggestWriter.matcher(Value(rank: 1, kind: "boolean", text: "false"), against: ids)
                == ":to_equal(false)")
    }

    @Test func numbersAreTriedRoundestFirst() {
        #expect(SuggestRounding.candidates(for: 181.02265842037724, .points) == [180, 181])
        #expect(SuggestRounding.candidates(for: 44.5, .translation) == [0, 40, 45])
        #expect(SuggestRounding.candidates(for: 0.76, .seconds(zero: true)) == [0, 1, 0.8, 0.75])
        #expect(SuggestRounding.candidates(for: 0.3, .seconds(zero: false)) == [0.5])
        #expect(SuggestRounding.candidates(for: 7, .moves) == [10, 1])
        #expect(SuggestRounding.round(0.29999, 0.1) == 0.3)
    }

    @Test func anUnusedLocalLosesItsNameAndKeepsItsCall() {
        let lines = [
            "  local screen = stackplay.screen {}",
            "  local stack = screen:notification_stack {",
            "    items = { \"a\" }, dismissible = true,",
            "  }",
            "  local f1 = screen:touch_down(10, 20)",
            "  expect(screen:hit_test(10, 20)):to_be_nil()",
        ]
        #expect(
            SuggestWriter.withoutUnusedLocals(lines) == [
                "  local screen = stackplay.screen {}",
                "  screen:notification_stack {",
                "    items = { \"a\" }, dismissible = true,",
                "  }",
                "  screen:touch_down(10, 20)",
                "  expect(screen:hit_test(10, 20)):to_be_nil()",
            ])
    }

    @Test func aLongLineIsBrokenAfterACommaOutsideStrings() {
        let items = (1...7).map { "{ id = \"c\($0)\", label = \"Card, \($0)\" }" }.joined(separator: ", ")
        let lines = SuggestWriter.wrapped("    items = { \(items) },")
        #expect(lines.count == 3)  // whole cards on each line
        #expect(lines.allSatisfy { $0.count <= 120 })
        #expect(lines[1].hasPrefix("      { id = ") && lines[2].hasPrefix("      { id = "))
        #expect(lines.dropLast().allSatisfy { $0.hasSuffix("},") })
        #expect(
            lines.joined(separator: " ").replacing("  ", with: "")
                == "    items = { \(items) },".replacing("  ", with: ""))
    }

    @Test func aPhraseSaysWhatTheExpectationChecks() {
        func phrase(_ expression: String, _ real: Value, _ mutant: Value) -> String {
            SuggestWriter.phrase(SuggestProbe.Difference(expression: expression, real: real, mutant: mutant))
        }
        let all = Value(rank: 0, kind: "table", text: "{ \"a\", \"b\", \"c\" }")
        let two = Value(rank: 0, kind: "table", text: "{ \"a\", \"c\" }")
        #expect(phrase("stack:ids()", all, two) == "b stays")
        #expect(phrase("stack:ids()", two, all) == "b is gone")
        #expect(
            phrase("screen:hit_test(195, 589)", Value(rank: 2, kind: "nil", text: "nil"), all)
                == "a touch at (195, 589) lands on nothing")
        #expect(phrase("stack:card(\"mail\").x", Self.number(16), Self.number(20)) == "mail's x is 16")
        #expect(
            phrase("stack:expanded()", Value(rank: 1, kind: "boolean", text: "false"), all)
                == "expanded is false")
    }
}
