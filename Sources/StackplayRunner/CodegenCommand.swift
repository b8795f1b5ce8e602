import Codegen
import SystemCalls
import Traces

#if canImport(Glibc)
    import Glibc
#endif

/// `stackplay codegen TRACE [-o FILE] [--force] [--name NAME]`: the Lua test a person would
/// write from a trace (``ScenarioWriter``), on stdout or in a new FILE. An existing FILE is never
/// written over without `--force`: that is a usage error naming it.
enum CodegenCommand {
    static func run(_ options: Options) -> Int32 {
        guard options.paths.count == 1 else {
            Output.usageError(
                options.paths.isEmpty
                    ? "codegen needs a trace (stackplay codegen TRACE.jsonl [-o FILE])"
                    : "codegen needs exactly one trace, got \(options.paths.count)")
            return ExitCode.usage
        }
        let path = options.paths[0]
        if let output = options.outputFile, !options.force, exists(output) {
            Output.usageError("\(output) already exists: give --force to write over it, or another -o FILE")
            return ExitCode.usage
        }
        let text: String
        do {
            let trace = try Trace(contentsOf: path, kinds: ScenarioKinds.standard.traceKinds)
            let writer = try ScenarioWriter(trace: trace)
            if let difference = writer.replayDifference {
                Output.err(
                    "stackplay: note: the trace's recorded frames differ from this model's replay (\(difference));"
                        + " the test follows this model")
            }
            text = try writer.lua(testName: options.testName ?? defaultName(path))
        } catch {
            Output.err("stackplay: \(error)")
            return ExitCode.failure
        }
        guard let output = options.outputFile else {
            Output.write(STDOUT_FILENO, text)
            return ExitCode.success
        }
        do throws(TraceFile.Failure) {
            if options.force {
                try TraceFile.write(text, to: output)
            } else {
                try create(output, text)
            }
        } catch {
            Output.err("stackplay: \(error.message)")
            return ExitCode.failure
        }
        Output.err("stackplay: wrote \(output)")
        return ExitCode.success
    }

    /// `replays swipe` for `traces/swipe.jsonl`.
    static func defaultName(_ path: String) -> String {
        var name = path.split(separator: "/").last.map(String.init) ?? path
        if name.hasSuffix(".jsonl") { name.removeLast(6) }
        return "replays \(name)"
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Writes a new file at `path`; one made there meanwhile is left alone (a usage error then).
    private static func create(_ path: String, _ text: String) throws(TraceFile.Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw TraceFile.Failure(message: "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        if let error = Syscall.writeAll(descriptor, text) {
            throw TraceFile.Failure(message: "cannot write \(path): \(error)")
        }
    }
}
