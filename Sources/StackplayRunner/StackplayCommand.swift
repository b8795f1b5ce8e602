import Bindings
import Traces
import Workers

#if canImport(Glibc)
    import Glibc
#endif

/// `stackplay [options] FILE|DIR ...`, `check`, `replay`, `render`: what the executable does,
/// as a function of its arguments that returns the exit code.
public enum StackplayCommand {
    /// Runs the command line `arguments` (without the program name); returns the exit code.
    public static func run(_ arguments: [String]) -> Int32 {
        // The studio is its own program (StudioLauncher): its arguments are its own.
        if arguments.first == "studio" { return StudioLauncher.run(Array(arguments.dropFirst())) }
        WorkerPool.forksOnlyAlone = true
        Output.holdStandardDescriptors()
        return Output.finish(command(arguments))
    }

    private static func command(_ arguments: [String]) -> Int32 {
        var options: Options
        do {
            options = try Options.parse(arguments)
        } catch {
            Output.usageError(error.message)
            return ExitCode.usage
        }
        if options.action != .help, options.action != .version,
            !MutantEnvironment.check(for: options.action)
        {
            return ExitCode.usage
        }
        switch options.action {
        case .help:
            Output.out(Options.help)
            return ExitCode.success
        case .version:
            Output.out("stackplay \(ReleaseVersions.string) (\(ReleaseVersions.lua))")
            return ExitCode.success
        case .replay:
            guard !options.paths.isEmpty else {
                Output.usageError("replay needs at least one trace")
                return ExitCode.usage
            }
            return TraceCommands.replay(options.paths, tolerance: options.tolerance ?? 1e-9)
        case .render:
            guard options.paths.count == 1 else {
                Output.usageError("render needs exactly one trace, got \(options.paths.count)")
                return ExitCode.usage
            }
            return TraceCommands.render(options.paths[0], at: options.at, to: options.outputFile)
        case .view:
            guard options.paths.contains(where: { !$0.hasSuffix(".lua") }) else {
                Output.usageError("view needs at least one trace")
                return ExitCode.usage
            }
            return TraceCommands.view(options.paths, to: options.outputFile)
        case .merge:
            return Merge.run(options)
        case .explore:
            return ExploreCommand.run(&options)
        case .mutate:
            return MutateCommand.run(options, arguments: arguments)
        case .codegen:
            return CodegenCommand.run(options)
        case .run, .check:
            return runScripts(&options)
        }
    }

    /// `stackplay check` and a run: the config, discovery, then checking or running.
    private static func runScripts(_ options: inout Options) -> Int32 {
        if options.action == .run {
            do throws(TestAtLine.Problem) { options.picks = try TestAtLine.resolve(&options.paths) } catch {
                Output.usageError(error.message)
                return ExitCode.usage
            }
            if options.picks != nil, options.lastFailed {
                Output.usageError("--last-failed and FILE:LINE both pick the tests to run: give one of them")
                return ExitCode.usage
            }
        }
        var bazel = BazelTest()
        if options.action == .run {
            do { bazel = try BazelTest.fromEnvironment() } catch {
                Output.usageError(error.message)
                return ExitCode.usage
            }
            // Flags win over Bazel's variables, and they over .stackplay.lua.
            bazel.apply(to: &options)
        }
        let config: Config
        do {
            // A config stuck in C code past its CPU budget is a usage error, said on stderr.
            ScriptWatchdog.exit(status: ExitCode.usage)
            defer { ScriptWatchdog.exit(status: ExitCode.failure) }
            config = try Config.load(for: options)
        } catch {
            Output.usageError(error.message)
            return ExitCode.usage
        }
        config.apply(to: &options)
        guard !options.paths.isEmpty else {
            Output.usageError("no scripts given")
            return ExitCode.usage
        }
        let scripts: [Script]
        do {
            scripts = try Discovery.scripts(
                in: options.paths, root: options.root, includingHelpers: options.action == .check)
        } catch {
            Output.usageError(error.message)
            return ExitCode.usage
        }
        if options.configFile == nil {
            do {
                try Config.check(scripts: scripts.map(\.path), paths: options.paths, loaded: config.source)
            } catch {
                Output.usageError(error.message)
                return ExitCode.usage
            }
        }
        if options.action == .check { return Check.run(scripts) ? ExitCode.success : ExitCode.failure }
        if let source = config.source { ReportOutput.addInput(source.path, as: "the config file") }
        if let refusal = ReportOutput.check(options, inputs: scripts.map(\.path), as: "a Lua script") {
            Output.usageError(refusal)
            return ExitCode.usage
        }
        var timings: ShardTimings?
        if let path = options.shardTimings {
            guard options.shard != nil else {
                Output.usageError("--shard-timings needs --shard K/N (or Bazel's TEST_TOTAL_SHARDS)")
                return ExitCode.usage
            }
            do { timings = try ShardTimings.load(path) } catch {
                Output.usageError(error.message)
                return ExitCode.usage
            }
        }
        if options.watch {
            return WatchCommand(options: options, config: config, timings: timings).run(scripts)
        }
        bazel.begin()
        let code = LastRun.run(options, config: config.source?.path, scripts: scripts) {
            TestRun(options: $0, screen: config.screen, timings: timings)
        }
        bazel.end(exitCode: code)
        return code
    }
}
