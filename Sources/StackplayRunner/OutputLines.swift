import Wording

/// A test's printed output as lines, without the empty one after its last newline: what the
/// human report quotes under the test and TAP writes as comments.
func outputLines(_ output: String) -> [Substring] {
    var lines = output.split(separator: "\n", omittingEmptySubsequences: false)
    if lines.last == "" { lines.removeLast() }
    return lines
}

/// `text` safe to print on a terminal and on one line of a report: a control character (C0 but
/// tab, DEL, C1) or a Unicode line or paragraph separator (U+2028, U+2029) is shown as `\n`, `\r`
/// or `\u{1B}`, so that a name or a message cannot move the cursor, colour the terminal or forge
/// a report line; newlines are kept when `newlines` is true
/// (a message of several lines); a byte of a Lua string that is not UTF-8 as `\xFF` (``RawByte``).
/// Other text, backslashes included, is unchanged.
func terminalSafe(_ text: String, newlines: Bool = false) -> String {
    var text = text
    return text.withUTF8(isPrintable) ? text : escaped(text, newlines: newlines)
}

/// ``terminalSafe(_:newlines:)`` of any string or substring.
func terminalSafe(_ text: some StringProtocol, newlines: Bool = false) -> String {
    text.utf8.withContiguousStorageIfAvailable(isPrintable) == true
        ? String(text) : escaped(text, newlines: newlines)
}

/// Whether the UTF-8 is printable ASCII and tabs, as most names are: nothing to look at scalar
/// by scalar.
private func isPrintable(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    for byte in bytes where (byte < 0x20 && byte != 0x09) || byte >= 0x7F { return false }
    return true
}

/// ``terminalSafe(_:newlines:)`` of text that is not all printable ASCII.
private func escaped(_ text: some StringProtocol, newlines: Bool) -> String {
    func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value < 0x20 && value != 0x09 && !(newlines && value == 0x0A))
            || (0x7F..<0xA0).contains(value)
            || value == 0x2028 || value == 0x2029 || RawByte.scalars.contains(value)
    }
    guard text.unicodeScalars.contains(where: isControl) else { return String(text) }
    var out = ""
    for scalar in text.unicodeScalars {
        guard isControl(scalar) else {
            out.unicodeScalars.append(scalar)
            continue
        }
        if let byte = RawByte.shown(scalar) {
            out += byte
            continue
        }
        switch scalar {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }
    return out
}
