import StackModel
import TestResults
import Wording

/// The report a person reads: a line a test on stdout, each failure in full on stderr
/// (`stackplay: path:line: message`, the expected and actual values, the screens' state, the Lua
/// traceback), and one summary line. Names, output and messages are shown terminal-safe
/// (``terminalSafe(_:newlines:)``): one line a test, whatever its name holds.
struct HumanReporter: Reporter {
    let colours: Bool
    /// Each status's start of a result line, made once.
    private let marks: (passed: String, failed: String, skipped: String)
    /// The run's seed, named in each failure so that copying one flag reproduces it.
    var seed: Int? = nil
    private var currentFile: String?
    private var failures: [TestResult] = []
    private var summary = Summary([])
    /// `--audit`'s known issues (``TestResult/knownAuditIssues``): each finding by its line without
    /// time and frame, with how many tests met it, in the order first met.
    private var known: [(finding: String, tests: Int)] = []

    init(colours: Bool, seed: Int? = nil, repeats: Int = 1) {
        self.colours = colours
        summary.repeats = repeats
        marks = (
            passed: "  " + Self.paint("ok  ", "32", colours: colours) + " ",
            failed: "  " + Self.paint("FAIL", "31", colours: colours) + " ",
            skipped: "  " + Self.paint("skip", "33", colours: colours) + " "
        )
        self.seed = seed
    }

    private func paint(_ text: String, _ code: String) -> String {
        Self.paint(text, code, colours: colours)
    }

    private static func paint(_ text: String, _ code: String, colours: Bool) -> String {
        colours ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    mutating func forgetSeed() { seed = nil }

    mutating func finished(_ result: TestResult, to sink: ReportSink) {
        let status = result.status
        let test = result.test
        summary.add(status)
        if !currentFile.isSameBytes(test.file) {
            currentFile = test.file
            sink.out(terminalSafe(test.file))
        }
        let mark: String
        switch status {
        case .passed: mark = marks.passed
        case .failed: mark = marks.failed
        case .skipped: mark = marks.skipped
        }
        // a whole script's variant (`--matrix`, `--mirror`) named as a test's is: `(whole script) [rtl]`
        let variant = test.index == 0 && !test.variant.isEmpty ? " [\(terminalSafe(test.variant.label))]" : ""
        let name = test.index == 0 ? "(whole script)" + variant : terminalSafe(test.name)
        // a skipped test's reason (a `--matrix` variant the test overrides) on its line
        sink.line(
            mark,
            status == .skipped && !result.message.isEmpty ? "\(name) (\(terminalSafe(result.message)))" : name
        )
        if !result.output.isEmpty { sink.out(Self.quoteOutput(result.output)) }
        if status == .failed { failures.append(result) }
        guard !result.knownAuditIssues.isEmpty else { return }
        for finding in Set(result.knownAuditIssues.map(Self.finding)).sorted() {
            if let index = known.firstIndex(where: { $0.finding == finding }) {
                known[index].tests += 1
            } else {
                known.append((finding, 1))
            }
        }
    }

    /// The seed finding `issue` is, in words: `element_detection hidden_hittable on
    /// wallet_card_stack card:* (seed 004: ...)`; an issue no seed finding matches, by its element.
    private static func finding(_ issue: AuditIssue) -> String {
        let what = "\(issue.type.rawValue) \(issue.rule) on \(issue.kind.rawValue)"
        guard let seed = AuditAllowance.seedFindings.first(where: { $0.matches(issue) }) else {
            return "\(what) \(issue.element) of '\(issue.component)'"
        }
        return "\(what) \(seed.element ?? "*")" + (seed.reason.map { " (\($0))" } ?? "")
    }

    func end(to sink: ReportSink) -> Bool {
        for result in failures {
            let message = terminalSafe(result.message, newlines: true)
            var text = "stackplay: \(message)"
            if result.test.index > 0 { text = "stackplay: \(terminalSafe(result.test.fullName))\n" + message }
            if !result.dump.isEmpty {
                text +=
                    "\n  state when it failed:\n"
                    + indent(terminalSafe(result.dump, newlines: true), by: "    ")
            }
            if !result.traceback.isEmpty { text += "\n" + terminalSafe(result.traceback, newlines: true) }
            if let seed {
                text += "\n  seed: \(seed) (to run it again with the same random numbers: --seed \(seed))"
            }
            sink.err(text)
        }
        if !known.isEmpty {
            sink.out(
                "known: \(known.count) accessibility finding\(known.count == 1 ? "" : "s") of the seed components "
                    + "(docs/audit.md; they fail no test, --audit=strict fails on them):")
            for (finding, tests) in known {
                sink.out("  known \(terminalSafe(finding)) (\(tests) test\(tests == 1 ? "" : "s"))")
            }
        }
        sink.out(paint(summary.line, summary.failed > 0 ? "31" : "32"))
        return true
    }

    /// A test's printed output as the report shows it, under the test: `      | line`.
    static func quoteOutput(_ output: String) -> String {
        outputLines(output).map { "      | " + terminalSafe($0) }.joined(separator: "\n")
    }

    private func indent(_ text: String, by prefix: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 }.joined(
            separator: "\n")
    }
}
