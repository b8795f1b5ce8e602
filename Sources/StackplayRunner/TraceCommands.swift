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
