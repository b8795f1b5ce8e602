import Bindings
import TestResults

/// The report a person reads: a line a test on stdout, each failure in full on stderr
/// (`stackplay: path:line: message`, the expected and actual values, the screens' state, the Lua
/// traceback), and one summary line.
struct HumanReporter {
    let colours: Bool
    /// The run's seed, named in each failure so that copying one flag reproduces it.
    var seed: Int? = nil

    private func paint(_ text: String, _ code: String) -> String {
        colours ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    func report(_ results: [TestResult]) {
        var currentFile: String?
        for result in results {
            if result.test.file != currentFile {
                currentFile = result.test.file
                Output.out(result.test.file)
            }
            let mark: String
            switch result.status {
            case .passed: mark = paint("ok  ", "32")
            case .failed: mark = paint("FAIL", "31")
            case .skipped: mark = paint("skip", "33")
            }
            Output.out("  \(mark) \(result.test.index == 0 ? "(whole script)" : result.test.name)")
            if !result.output.isEmpty { Output.out(Self.quoteOutput(result.output)) }
        }
        for result in results where result.status == .failed {
            var text = "stackplay: \(result.message)"
            if result.test.index > 0 { text = "stackplay: \(result.test.fullName)\n" + result.message }
            if !result.dump.isEmpty {
                text += "\n  state when it failed:\n" + indent(result.dump, by: "    ")
            }
            if !result.traceback.isEmpty { text += "\n" + result.traceback }
            if let seed { text += "\n  seed: \(seed) (to run it again with the same random numbers: --seed \(seed))" }
            Output.err(text)
        }
        let summary = Summary(results)
        Output.out(paint(summary.line, summary.failed > 0 ? "31" : "32"))
    }

    /// A test's printed output as the report shows it, under the test: `      | line`.
    static func quoteOutput(_ output: String) -> String {
        outputLines(output).map { "      | " + $0 }.joined(separator: "\n")
    }

    private func indent(_ text: String, by prefix: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 }.joined(
            separator: "\n")
    }
}
