import Bindings
import TestResults
import Traces

/// `stackplay replay`, `stackplay render` and `stackplay view`.
enum TraceCommands {
    /// Replays each trace and checks its frames: `ok  path (N events)` on stdout, the first
    /// difference or the reading error on stderr. Every trace is tried, whatever came before.
    static func replay(_ paths: [String], tolerance: Double) -> Int32 {
        var failed = 0
        for path in paths {
            do {
                let trace = try Trace(contentsOf: path)
                let replayer = try TraceReplayer(trace)
                if let mismatch = try replayer.run(tolerance: tolerance) {
                    failed += 1
                    Output.out("FAIL \(path)")
                    Output.err(
                        "stackplay: \(mismatch)\n  To fix: if the model changed on purpose, record the trace again."
                    )
                } else {
                    Output.out(
                        "ok   \(path) (\(trace.steps.count) event\(trace.steps.count == 1 ? "" : "s"))")
                }
            } catch {
                failed += 1
                Output.out("FAIL \(path)")
                Output.err("stackplay: \(error)")
            }
        }
        Output.out("\(paths.count - failed) replayed, \(failed) failed")
        return failed == 0 ? ExitCode.success : ExitCode.failure
    }

    /// Writes the SVG of one frame of a trace.
    static func render(_ path: String, at index: Int?, to output: String?) -> Int32 {
        emit(to: output.map { ReportOutput(flag: "-o", path: $0, kind: .svg) }, reading: [path]) {
            () throws(TraceError) in
            try TraceSVG.render(try Trace(contentsOf: path), at: index)
        }
    }

    /// Writes the trace viewer for `paths`: one test a trace, named by its path; a `--trace` file
    /// of a run (it ends with its test's result line) gives its test with its verdict, message and
    /// output, the test's next screens joining it; a `--json` report of a run (a file that reads
    /// as one) gives its tests with their verdicts, messages, output, likely causes and traces. A trace that does not read is an error naming it, and
    /// nothing is written.
    /// The scripts among `paths` (`.lua`) are not traces: a trace's source pane shows the one its
    /// actions name, and no other file.
    static func view(_ paths: [String], to output: String?) -> Int32 {
        let scripts = paths.filter { $0.hasSuffix(".lua") }.compactMap(TraceFile.realPath)
        return emit(to: output.map { ReportOutput(flag: "-o", path: $0, kind: .page) }, reading: paths) {
            () throws(TraceError) in
            var tests: [TraceViewer.Test] = []
            // The `--trace` files read so far that carry their test's verdict, and where each is
            // in `tests`.
            var ran: [(result: TestResult, at: Int, screens: [(Int, String)])] = []
            var seed: Int?
            for path in paths where !path.hasSuffix(".lua") {
                let text: String
                do throws(TraceFile.Failure) { text = try TraceFile.read(path) } catch {
                    throw TraceError(file: path, line: 0, message: error.message)
                }
                if let report = try? Merge.read(text, path: path) {
                    // A report names its scripts: the page shows those given beside it, never a
                    // path the report names (a crafted one could name any readable file).
                    let viewed = TraceOutputs.viewerTests(report.results, golden: nil, scripts: false)
                    for (result, var test) in zip(report.results, viewed) {
                        test.sources = TraceViewer.sources(of: result.traces) { file in
                            TraceFile.realPath(file).map(scripts.contains) ?? false
                        }
                        tests.append(test)
                    }
                    seed = seed ?? report.seed
                    continue
                }
                let trace = try Trace(text: text, file: path)
                if var result = trace.result {
                    // A `--trace` file of a run: its test with its verdict, message and output; the
                    // test's other screens (`<stem>.2.jsonl`, ...), given in any order, join it.
                    let screen = (trace.resultScreen, TraceResultLine.removed(from: text))
                    if let known = ran.firstIndex(where: { $0.result.test == result.test }) {
                        ran[known].screens.append(screen)
                        result = ran[known].result
                    } else {
                        ran.append((result, tests.count, [screen]))
                        tests.append(TraceViewer.Test(name: "", status: .trace, screens: []))
                    }
                    let entry = ran.first { $0.result.test == result.test }!
                    result.traces = entry.screens.sorted { $0.0 < $1.0 }.map(\.1)
                    var test = TraceOutputs.viewerTests([result], golden: nil, scripts: false)[0]
                    test.seconds = nil  // a trace's bytes hold no time: none is shown
                    test.sources = TraceViewer.sources(of: result.traces) { file in
                        TraceFile.realPath(file).map(scripts.contains) ?? false
                    }
                    tests[entry.at] = test
                    seed = seed ?? result.seed
                    continue
                }
                tests.append(
                    TraceViewer.Test(
                        name: path, status: .trace, screens: [.init(name: path, trace: text)],
                        sources: TraceViewer.sources(of: [text]) { file in
                            TraceFile.realPath(file).map(scripts.contains) ?? false
                        }))
            }
            return TraceViewer.html(
                tests, title: "stackplay view", metadata: TraceOutputs.metadata(seed: seed, command: []))
        }
    }

    /// Makes a document and writes it to `output` (named on stderr), else to stdout; an error
    /// making or writing it goes to stderr and exits 1.
    private static func emit(
        to output: ReportOutput?, reading inputs: [String], _ make: () throws(TraceError) -> String
    ) -> Int32 {
        for input in inputs { ReportOutput.addInput(input, as: "a file it reads") }
        if let refusal = output?.refusal() {
            Output.usageError(refusal.message)
            return ExitCode.usage
        }
        do {
            let document = try make()
            if let output {
                try output.write(document)
                Output.err("stackplay: wrote \(output.path)")
            } else {
                Output.write(1, document)
            }
            return ExitCode.success
        } catch {
            Output.err("stackplay: \(error)")
            return ExitCode.failure
        }
    }
}
