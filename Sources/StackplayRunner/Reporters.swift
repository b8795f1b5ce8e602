import TestResults

/// Where a report goes: stdout lines and stderr lines (the terminal, or a string in tests).
struct ReportSink {
    var out: (String) -> Void
    var err: (String) -> Void
    /// A line of stdout in two parts (a result's mark, then its name), written as one line.
    var line: (String, String) -> Void

    init(out: @escaping (String) -> Void, err: @escaping (String) -> Void) {
        self.out = out
        self.err = err
        line = { out($0 + $1) }
    }

    /// stdout and stderr (``Output``), made once: a report writes to it at every result, the
    /// line of a result without the string that would join its parts.
    nonisolated(unsafe) static let standard: ReportSink = {
        var sink = ReportSink(out: Output.out, err: Output.err)
        sink.line = Output.line
        return sink
    }()
}

/// What a report wrote, kept as text (``Reporter/render(_:)``).
private final class ReportText {
    var out = ""
    var err = ""
}

/// A report of a run: told how many tests there are, then each result as it is known, then that
/// the run ended. The human, TAP, JSON and JUnit reports are each one; a run, `stackplay merge`
/// and an interrupted run (SIGINT's partial report) all report through ``Reporters/report``.
protocol Reporter {
    mutating func start(count: Int, to sink: ReportSink)
    mutating func finished(_ result: TestResult, to sink: ReportSink)
    /// False when the report could not be written (it said why on `sink.err`).
    mutating func end(to sink: ReportSink) -> Bool
    /// Names no seed at the end: a signal interrupted the run (``Interruption``).
    mutating func forgetSeed()
}

extension Reporter {
    mutating func start(count: Int, to sink: ReportSink) {}
    mutating func forgetSeed() {}

    /// What this report writes for `results`, as text: stdout's lines, then stderr's.
    func render(_ results: [TestResult]) -> (out: String, err: String) {
        let text = ReportText()
        var reporter = self
        Reporters.feed(
            results, to: &reporter,
            sink: ReportSink(out: { text.out += $0 + "\n" }, err: { text.err += $0 + "\n" }))
        return (text.out, text.err)
    }

    /// What this report writes on stdout for `results`, without the last newline.
    func document(_ results: [TestResult]) -> String { String(render(results).out.dropLast()) }
}

/// The one path every report takes.
enum Reporters {
    /// Reports `results` on stdout in `format`, and as JUnit XML to `junit` and JSON to `jsonFile`
    /// when given; false when a file could not be written (the error is on stderr).
    @discardableResult
    static func report(
        _ results: [TestResult], format: Options.Format, seed: Int?, junit: String?, jsonFile: String? = nil,
        repeats: Int = 1
    ) -> Bool {
        var reporter = reporter(format, seed: seed, repeats: repeats)
        var written = feed(results, to: &reporter, sink: .standard)
        for var file in files(seed: seed, junit: junit, jsonFile: jsonFile) {
            written = feed(results, to: &file, sink: .standard) && written
        }
        return written
    }

    /// The reports that go to files: `--junit FILE`, `--json=FILE`.
    static func files(seed: Int?, junit: String?, jsonFile: String?) -> [any Reporter] {
        var files: [any Reporter] = []
        if let junit { files.append(JUnitReporter(seed: seed, path: junit)) }
        if let jsonFile { files.append(JSONReporter(seed: seed, path: jsonFile)) }
        return files
    }

    static func reporter(_ format: Options.Format, seed: Int?, repeats: Int = 1) -> any Reporter {
        switch format {
        case .human: HumanReporter(colours: Output.colours, seed: seed, repeats: repeats)
        case .tap: TapReporter(repeats: repeats)
        case .json: JSONReporter(seed: seed)
        case .github: GitHubReporter()
        }
    }

    @discardableResult
    static func feed<R: Reporter>(_ results: [TestResult], to reporter: inout R, sink: ReportSink) -> Bool {
        reporter.start(count: results.count, to: sink)
        for result in results { reporter.finished(result, to: sink) }
        return reporter.end(to: sink)
    }
}

/// A report fed one result at a time, as the run finishes them: the same bytes as
/// ``Reporters/report`` for the same results, without the run holding them (the human report keeps
/// only the failures it writes at the end; `--json` and `--junit` keep what their documents need).
/// Not for TAP, whose plan counts the results before the first.
struct ReportStream {
    private var reporter: any Reporter
    private var files: [any Reporter]
    /// The counts of the results so far.
    private(set) var summary = Summary([])
    private(set) var count = 0

    init(format: Options.Format, seed: Int?, junit: String?, jsonFile: String? = nil, repeats: Int = 1) {
        precondition(format != .tap, "a TAP report counts its results first")
        reporter = Reporters.reporter(format, seed: seed, repeats: repeats)
        files = Reporters.files(seed: seed, junit: junit, jsonFile: jsonFile)
    }

    mutating func add(_ result: TestResult) {
        summary.add(result.status)
        count += 1
        reporter.finished(result, to: .standard)
        for index in files.indices { files[index].finished(result, to: .standard) }
    }

    /// Ends the reports (with no seed when `interrupted`); false when the JUnit file could not be written.
    mutating func end(interrupted: Bool = false) -> Bool {
        if interrupted {
            reporter.forgetSeed()
            for index in files.indices { files[index].forgetSeed() }
        }
        var written = reporter.end(to: .standard)
        for index in files.indices { written = files[index].end(to: .standard) && written }
        return written
    }
}
