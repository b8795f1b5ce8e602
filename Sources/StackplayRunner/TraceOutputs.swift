import Bindings
import TestResults
import Traces
import Wording

#if canImport(Glibc)
    import Glibc
#endif

/// What a run leaves beside its report: traces (`--trace`), golden comparisons (`--golden`,
/// `--update`) and pictures (`--artifacts`).
struct TraceOutputs {
    let options: Options

    /// A test's trace file names: `<stem>.jsonl` for its first screen, `<stem>.2.jsonl` for the
    /// second, ...; the stem comes from the script path and the test name (``TraceFile/stem(_:)``:
    /// readable, with a hash that keeps every test's name apart), so it is stable and unique.
    static func names(_ result: TestResult) -> [String] { result.traces.indices.map { name(result, $0) } }

    /// The file name of screen `index` (from 0) of `result`'s test.
    static func name(_ result: TestResult, _ index: Int) -> String {
        let stem = TraceFile.stem(
            result.test.index == 0 ? [result.test.file] : [result.test.file, result.test.name])
        return index == 0 ? "\(stem).jsonl" : "\(stem).\(index + 1).jsonl"
    }

    /// Two tests of different bytes whose trace files would have one name (the stem's hash is 32
    /// bits: names that differ in case or punctuation only can share it), in words; nil when
    /// every test has its own. Nothing is written then: one test's traces would replace the other's.
    static func sharedName(_ results: [TestResult]) -> String? {
        var owners: [ByteKey: TestCase] = [:]
        for result in results where !result.traces.isEmpty {
            let stem = ByteKey(name(result, 0))
            if let other = owners[stem] {
                let same =
                    other.file.isSameBytes(result.test.file) && other.name.isSameBytes(result.test.name)
                if !same {
                    return
                        "'\(terminalSafe(other.fullName))' and '\(terminalSafe(result.test.fullName))' would share "
                        + "the trace file \(stem.text): rename one of them (no trace was written)"
                }
            } else {
                owners[stem] = result.test
            }
        }
        return nil
    }

    /// How `--golden` compares: the same rules as a script's `to_match_trace`.
    var policy: GoldenPolicy {
        GoldenPolicy(update: options.update, ci: options.ci, tolerance: options.tolerance)
    }

    /// Writes the traces, compares or records the golden ones (a difference fails the test), and
    /// writes the artifacts. Returns the results with golden failures folded in; false in `ok`
    /// when a file could not be written.
    func apply(to results: [TestResult]) -> (results: [TestResult], ok: Bool) {
        var results = results
        var ok = true
        let folders = [options.traceDirectory, options.goldenDirectory, options.artifactsDirectory]
        let writes = folders.contains { $0 != nil }
        if writes, let clash = Self.sharedName(results) {
            Output.err("stackplay: \(clash)")
            return (results, false)
        }
        if let directory = options.traceDirectory { ok = write(results, to: directory) && ok }
        if let directory = options.goldenDirectory {
            for index in results.indices where results[index].status != .skipped {
                ok = golden(&results[index], in: directory) && ok
            }
        }
        if let directory = options.artifactsDirectory { ok = artifacts(results, in: directory) && ok }
        return (results, ok)
    }

    private func write(_ results: [TestResult], to directory: String) -> Bool {
        do {
            try TraceFile.makeDirectory(directory)
            for result in results {
                for (screen, (name, text)) in zip(Self.names(result), result.traces).enumerated() {
                    // Each file ends with its test's verdict: `stackplay view` shows it.
                    try ReportOutput(
                        flag: "--trace", path: "\(directory)/\(name)", kind: .trace, inFolder: true
                    )
                    .write(TraceResultLine.appending(result, screen: screen + 1, to: text))
                }
            }
            return true
        } catch {
            Output.err("stackplay: \(error.message)")
            return false
        }
    }

    private func golden(_ result: inout TestResult, in directory: String) -> Bool {
        do {
            // Under --ci a missing folder is missing golden traces: nothing is made.
            if !options.ci || options.update { try TraceFile.makeDirectory(directory) }
            let outcomes = try GoldenTrace.check(
                result.traces, name: { Self.name(result, $0) }, under: directory, policy: policy)
            for outcome in outcomes {
                switch outcome {
                case .matched: break
                case .recorded(let path): Output.err("stackplay: wrote the golden trace \(path)")
                case .failed(let message):
                    // A golden trace that differs is a failed comparison, not an error.
                    if result.status != .failed { result.kind = .failure }
                    result.status = .failed
                    result.message =
                        (result.message.isEmpty ? "" : result.message + "\n")
                        + "the run does not match its golden traces:\n\(message)"
                }
            }
            return true
        } catch {
            Output.err("stackplay: \(error)")
            return false
        }
    }

    private func artifacts(_ results: [TestResult], in directory: String) -> Bool {
        var settings: [String] = []
        if options.mirror { settings.append("--mirror") }
        if let tolerance = options.tolerance { settings.append("--tolerance \(formatNumber(tolerance))") }
        if let golden = options.goldenDirectory { settings.append("--golden \(golden)") }
        return Self.writeArtifacts(
            results, in: directory, golden: options.goldenDirectory, scripts: true,
            metadata: Self.metadata(seed: options.seed, settings: settings.joined(separator: " ")))
    }

    /// The viewer's tests for `results`: each screen's trace, and for a failed test its golden
    /// trace from `golden` when that folder holds one (a passing test's equals its trace). With
    /// `scripts`, each test's script and the modules under its root that its actions name, which
    /// the run read; without (`merge`: reports name the files), no script text.
    static func viewerTests(_ results: [TestResult], golden: String?, scripts: Bool) -> [TraceViewer.Test] {
        results.map { result in
            let screens = zip(names(result), result.traces).map { name, text in
                TraceViewer.Screen(
                    name: name, trace: text,
                    golden: (result.status == .failed ? golden : nil).flatMap { directory in
                        TraceFile.exists("\(directory)/\(name)")
                            ? try? TraceFile.read("\(directory)/\(name)") : nil
                    })
            }
            var test = TraceViewer.Test(
                name: result.test.fullName, status: .result(result.status), seconds: result.seconds,
                message: result.message, screens: screens, output: result.output,
                sources: scripts
                    ? TraceViewer.sources(of: result.traces, script: result.test.file) { file in
                        TraceViewer.isModule(
                            file, under: result.test.root ?? Discovery.folder(of: result.test.file))
                    } : [:])
            if result.status == .failed {
                test.kind = result.kind.rawValue
                test.position = result.position
                test.traceback = result.traceback
                test.dump = result.dump
                test.cause = result.cause
                test.causePosition = result.causePosition
            }
            if result.status != .skipped { test.seed = result.seed }
            return test
        }
    }

    /// The trace and action of `result`'s likely cause: the last action, in the last screen that
    /// has one, whose call is at the cause's `path:line`; nil when there is no cause or no action.
    static func causeAction(of result: TestResult, in traces: [Trace]) -> (Trace, TraceAction)? {
        guard !result.cause.isEmpty, let colon = result.causePosition.lastIndex(of: ":"),
            let line = Int(result.causePosition[result.causePosition.index(after: colon)...])
        else { return nil }
        let file = String(result.causePosition[..<colon])
        // Two calls on one line (`wallet:tap("mc"); screen:settle()`): the one the cause names.
        let named = { (action: TraceAction) in result.cause.hasPrefix("the \(action.method) at ") }
        for trace in traces.reversed() {
            let here = trace.actions.filter { $0.file == file && $0.sourceLine == line }
            if let action = here.last(where: named) ?? here.last { return (trace, action) }
        }
        return nil
    }

    /// The run as the viewer's metadata panel shows it: stackplay's version, the seed, the
    /// settings that change what runs, and the command.
    static func metadata(seed: Int?, settings: String = "", command: [String] = CommandLine.arguments) -> [(
        String, String
    )] {
        var rows = [("stackplay", ReleaseVersions.string)]
        if let seed {
            rows.append(("seed", "\(seed) (--seed \(seed) runs it again with the same random numbers)"))
        }
        if !settings.isEmpty { rows.append(("settings", settings)) }
        let words = command.enumerated().map { index, word in index == 0 ? "stackplay" : word }
        if !words.isEmpty { rows.append(("command", words.joined(separator: " "))) }
        return rows
    }

    /// An SVG of each failure's last frame, and `report.html`, the trace viewer of the run.
    static func writeArtifacts(
        _ results: [TestResult], in directory: String, golden: String?, scripts: Bool,
        metadata: [(String, String)] = metadata(seed: nil)
    ) -> Bool {
        do {
            try TraceFile.makeDirectory(directory)
            for result in results where result.status == .failed {
                let names = Self.names(result)
                // Every failure with a screen gets its picture, even one that failed before any
                // input (the screen as it was built).
                // A trace that does not read or draw (a frame of NaN) gets a note, not silence,
                // and the other pictures and the viewer are still written.
                var traces: [Trace] = []
                for (name, text) in zip(names, result.traces) {
                    do { traces.append(try Trace(text: text, file: name)) } catch {
                        Output.err("stackplay: no picture of \(result.test.fullName): \(error)")
                        break
                    }
                }
                if let trace = traces.last {
                    let svg = "\(directory)/\(names[traces.count - 1].dropLast(".jsonl".count)).svg"
                    do {
                        // A likely cause: its action's before and after; else the last frame.
                        let picture =
                            try causeAction(of: result, in: traces).map { trace, action in
                                try TraceSVG.cause(
                                    trace, action: action, title: result.test.fullName, cause: result.cause)
                            } ?? TraceSVG.render(trace, at: nil, issues: result.auditIssues)
                        try ReportOutput(flag: "--artifacts", path: svg, kind: .svg, inFolder: true).write(
                            picture)
                        Output.err("stackplay: wrote \(svg)")
                    } catch let error as TraceFile.Failure {
                        throw error
                    } catch {
                        Output.err("stackplay: no picture of \(result.test.fullName): \(error)")
                    }
                }
                // --mirror: the unmirrored frame and the mirrored one where they part.
                if result.status == .failed, !result.picture.isEmpty {
                    let stem = Self.name(result, 0).dropLast(".jsonl".count)
                    try ReportOutput(
                        flag: "--artifacts", path: "\(directory)/\(stem).mirror.svg", kind: .svg,
                        inFolder: true
                    ).write(result.picture)
                    Output.err("stackplay: wrote \(directory)/\(stem).mirror.svg")
                }
            }
            let page = TraceViewer.html(
                viewerTests(results, golden: golden, scripts: scripts), metadata: metadata)
            try ReportOutput(
                flag: "--artifacts", path: "\(directory)/report.html", kind: .page, inFolder: true
            )
            .write(page)
            Output.err("stackplay: wrote \(directory)/report.html")
            return true
        } catch {
            Output.err("stackplay: \(error)")
            return false
        }
    }
}
