import Testing

@testable import StackplayRunner

/// `terminalSafe` of a `String` checks the bytes of a printable name in one pass and gives the
/// string itself; anything else goes the way of a substring. Both must show the same text.
@Suite struct TerminalSafeTests {
    static let texts: [String] = [
        "", "scenario 12", "tab\there", "new\nline", "carriage\rreturn", "\u{1B}[31mred\u{1B}[0m",
        "delete\u{7F}", "next line\u{85}", "café", "line\u{2028}separator", "paragraph\u{2029}",
        "raw \u{10FFFF} byte", "\u{0}", "emoji 🃏 card", String(repeating: "x", count: 300) + "\u{7}",
    ]

    @Test("a string is shown as its substring is, with and without its newlines", arguments: texts)
    func stringAndSubstringAgree(text: String) {
        #expect(terminalSafe(text) == terminalSafe(text[...]))
        #expect(terminalSafe(text, newlines: true) == terminalSafe(text[...], newlines: true))
    }

    @Test("a printable name is itself; control characters and raw bytes are escaped")
    func shown() {
        #expect(terminalSafe("scenario 12") == "scenario 12")
        #expect(terminalSafe("tab\there") == "tab\there")
        #expect(terminalSafe("new\nline") == "new\\nline")
        #expect(terminalSafe("new\nline", newlines: true) == "new\nline")
        #expect(terminalSafe("\u{1B}[31m") == "\\u{1B}[31m")
        #expect(terminalSafe("delete\u{7F}") == "delete\\u{7F}")
        #expect(terminalSafe("raw \u{10FFFF}") == "raw \\xFF")
        #expect(terminalSafe("café") == "café")
    }
}
