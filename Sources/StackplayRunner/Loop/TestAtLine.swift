/// `path/to/file.lua:LINE` on the command line: the test defined at or around that line, as
/// pytest and Playwright read `file:line` (editors and CI annotations link to it). The test is the
/// one whose `test(...)` (or `only`, `skip`) call spans the line, else the last one that starts
/// before it; a line before the file's first test, or past its end, is a usage error naming it.
/// A file without tests is one test: any of its lines picks it.
enum TestAtLine {
    struct Problem: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// Takes the `:LINE` off each path that has one (a file of that whole name, colon and all,
    /// stays a file) and returns what they pick; nil when no path has one.
    static func resolve(_ paths: inout [String]) throws(Problem) -> TestPicks? {
        var picks = TestPicks()
        var any = false
        for (index, given) in paths.enumerated() {
            guard let colon = given.lastIndex(of: ":"), Discovery.kind(of: given) == .missing,
                let line = Int(given[given.index(after: colon)...])
            else { continue }
            let path = String(given[..<colon])
            guard Discovery.kind(of: path) == .file else {
                throw Problem(message: "\(given): no such file: \(path)")
            }
            guard let source = Check.readFile(path) else {
                throw Problem(message: "\(given): cannot read \(path)")
            }
            let lineCount =
                source.split(separator: "\n", omittingEmptySubsequences: false).count
                - (source.hasSuffix("\n") ? 1 : 0)
            guard line >= 1, line <= lineCount else {
                throw Problem(message: "\(given): \(path) has lines 1 to \(lineCount), not \(line)")
            }
            let calls = testCalls(in: source)
            var inFile = picks.files[AffectedScripts.canonical(path), default: TestPicks.InFile()]
            if !calls.isEmpty {
                guard
                    let call = calls.last(where: { $0.start <= line && line <= $0.end })
                        ?? calls.last(where: { $0.end < line })
                else {
                    throw Problem(
                        message:
                            "\(given): line \(line) is outside any test (the first test of \(path) starts at line "
                            + "\(calls[0].start))")
                }
                inFile.lines.insert(call.start)
            }
            picks.files[AffectedScripts.canonical(path)] = inFile
            paths[index] = path
            any = true
        }
        return any ? picks : nil
    }

    /// Where each `test(`, `only(` and `skip(` call starts and ends (the lines of its name and
    /// of its closing parenthesis), in order; method calls (`x:test(`) and fields (`t.test(`) are
    /// not tests.
    static func testCalls(in source: String) -> [(start: Int, end: Int)] {
        let tokens = LuaScan.tokenize(source)
        var calls: [(start: Int, end: Int)] = []
        var i = 0
        while i + 1 < tokens.count {
            defer { i += 1 }
            guard ["test", "only", "skip"].contains(tokens[i].text), tokens[i + 1].text == "(",
                i == 0 || ![".", ":", "function"].contains(tokens[i - 1].text)
            else { continue }
            var depth = 0
            var j = i + 1
            while j < tokens.count {
                if tokens[j].text == "(" { depth += 1 }
                if tokens[j].text == ")" {
                    depth -= 1
                    if depth == 0 { break }
                }
                j += 1
            }
            calls.append((tokens[i].line, tokens[min(j, tokens.count - 1)].line))
        }
        return calls
    }
}
