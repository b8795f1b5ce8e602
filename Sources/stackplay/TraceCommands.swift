import Bindings
import Traces

/// `stackplay replay` and `stackplay render`.
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
                    Output.out("ok   \(path) (\(trace.steps.count) events)")
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
        do {
            let svg = try TraceSVG.render(try Trace(contentsOf: path), at: index)
            if let output {
                try TraceFile.write(svg, to: output)
                Output.err("stackplay: wrote \(output)")
            } else {
                Output.write(1, svg)
            }
            return ExitCode.success
        } catch {
            Output.err("stackplay: \(error)")
            return ExitCode.failure
        }
    }
}

/// What a run leaves beside its report: traces (`--trace`), golden comparisons (`--golden`,
/// `--update`) and pictures (`--artifacts`).
struct TraceOutputs {
    let options: Options

    /// A test's trace file names: `<stem>.jsonl` for its first screen, `<stem>.2.jsonl` for the
    /// second, ...; the stem comes from the script path and the test name, so it is stable.
    static func names(_ result: TestResult) -> [String] {
        let stem = TraceFile.stem(
            result.test.index == 0 ? [result.test.file] : [result.test.file, result.test.name])
        return result.traces.indices.map { $0 == 0 ? "\(stem).jsonl" : "\(stem).\($0 + 1).jsonl" }
    }

    /// Writes the traces, compares or records the golden ones (a difference fails the test), and
    /// writes the artifacts. Returns the results with golden failures folded in; false in `ok`
    /// when a file could not be written.
    func apply(to results: [TestResult]) -> (results: [TestResult], ok: Bool) {
        var results = results
        var ok = true
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
                for (name, text) in zip(Self.names(result), result.traces) {
                    try TraceFile.write(text, to: "\(directory)/\(name)")
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
            try TraceFile.makeDirectory(directory)
            for (name, text) in zip(Self.names(result), result.traces) {
                let path = "\(directory)/\(name)"
                if options.update || !TraceFile.exists(path) {
                    try TraceFile.write(text, to: path)
                    Output.err("stackplay: wrote the golden trace \(path)")
                    continue
                }
                let stored = try TraceFile.read(path)
                if stored == text { continue }
                let message: String
                do {
                    let expected = try Trace(text: stored, file: path)
                    let actual = try Trace(text: text, file: "this run")
                    guard
                        let mismatch = TraceComparison.firstDifference(
                            expected: expected, actual: actual, tolerance: options.tolerance ?? 1e-9)
                    else { continue }
                    message = "\(mismatch)"
                } catch {
                    message = "\(error)"
                }
                result.status = .failed
                result.message =
                    (result.message.isEmpty ? "" : result.message + "\n")
                    + "the run differs from the golden trace:\n\(message)\n"
                    + "  To fix: if the change is meant, run again with --update to record \(path)."
            }
            return true
        } catch {
            Output.err("stackplay: \(error.message)")
            return false
        }
    }

    private func artifacts(_ results: [TestResult], in directory: String) -> Bool {
        do {
            try TraceFile.makeDirectory(directory)
            var entries: [TraceReport.Entry] = []
            for result in results where result.status != .skipped {
                let names = Self.names(result)
                let traces = zip(names, result.traces).compactMap { try? Trace(text: $1, file: $0) }
                entries.append(
                    TraceReport.Entry(
                        name: result.test.fullName, failed: result.status == .failed, message: result.message,
                        traces: traces))
                if result.status == .failed, let trace = traces.last, !trace.steps.isEmpty {
                    let svg = "\(directory)/\(names[traces.count - 1].dropLast(".jsonl".count)).svg"
                    try TraceFile.write(try TraceSVG.render(trace, at: nil), to: svg)
                    Output.err("stackplay: wrote \(svg)")
                }
            }
            try TraceFile.write(TraceReport.html(entries), to: "\(directory)/report.html")
            Output.err("stackplay: wrote \(directory)/report.html")
            return true
        } catch {
            Output.err("stackplay: \(error)")
            return false
        }
    }
}
