/// A test's printed output as lines, without the empty one after its last newline: what the
/// human report quotes under the test and TAP writes as comments.
func outputLines(_ output: String) -> [Substring] {
    var lines = output.split(separator: "\n", omittingEmptySubsequences: false)
    if lines.last == "" { lines.removeLast() }
    return lines
}
