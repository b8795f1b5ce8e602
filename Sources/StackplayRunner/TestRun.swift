import Bindings
import LuaRuntime
import TestResults
import Traces

#if canImport(Glibc)
    import Glibc
#endif

/// One run of scripts' tests: find them, choose them (filters, tags, shard), run them in worker
/// processes, write traces, goldens and artifacts, report, and say how it ended.
struct TestRun {
    var options: Options
    /// Every screen's defaults (`.stackplay.lua`'s `screen`).
    let screen: ScreenDefaults
    /// `--shard-timings`: the durations that balance the shards.
    var timings: ShardTimings? = nil

    /// Runs the tests of `scripts`; returns the exit code.
    func run(_ scripts: [Script]) -> Int32 {
        var options = self.options
        let modules = StackplayModules.standard(
            screen: screen, recordsTraces: options.recordsTraces, updatesGolden: options.update,
            golden: TraceOutputs(options: options).policy, audit: options.audit)
        if options.randomSeed {
            let picked = Int(UInt64.random(in: 0...UInt64(Int32.max)))
            options.seed = picked
            Output.err("stackplay: seed \(picked) (run again with --seed \(picked))")
        }
        let seed = options.seed ?? RunSeed.standard
        let runner = TestRunner(scripts: ScriptRunner(budget: options.budget, modules: modules), seed: seed)
        let jobs = options.jobs ?? max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)
        let isolated = IsolatedRunner(
            runner: runner, jobs: jobs, timeout: options.timeout, repeats: options.repeats, bail: options.bail)
        runner.prepare()  // before the workers are forked: they share the compiled prelude
        WorkerPool.installSignalHandlers()

        // Find every test (a file that does not load is one failed test), then choose and run.
        let (discovered, discoveryEnded) = isolated.discover(scripts)
        guard discoveryEnded else {
            return Interruption.report([], of: 0, junit: options.junit, format: options.format)
        }
        var tests: [TestCase] = []
        var broken: [TestResult] = []
        // Whole scripts that finding their tests ran, by file: their run is that result.
        var ranWhole: [String: TestResult] = [:]
        if options.verbose, let reason = LuaState.freshStatesReason {
            Output.err("stackplay: every test runs in a fresh Lua state (\(reason))")
        }
        for found in discovered {
            if options.verbose, let why = found.fallback, case .success(let cases) = found.outcome,
                let file = cases.first?.file
            {
                Output.err("stackplay: \(file): each test runs the file's top level again: \(why)")
            }
            switch found.outcome {
            case .success(let cases) where EmptyScript.isEmpty(cases):
                broken.append(EmptyScript.failure(cases[0]))
            case .success(let cases):
                tests += cases
                if let ran = found.ran, options.repeats == 1 { ranWhole[ran.test.file] = ran }
            case .failure(let failed): broken.append(failed)
            }
        }
        tests = options.matrix.apply(to: tests)
        if options.mirror { tests = tests.flatMap { [$0, $0.under($0.variant.mirrored)] } }
        let chosen = Selection.apply(
            tests, filters: options.filters, tags: options.tags, excludedTags: options.excludedTags,
            shard: options.shard, timings: timings)
        // A file that does not load has no tags: a tag selection leaves it out, a filter may keep it.
        let chosenBroken =
            options.tags.isEmpty
            ? Selection.apply(broken.map(\.test), filters: options.filters, shard: nil) : []
        let selecting = !options.filters.isEmpty || !options.tags.isEmpty || !options.excludedTags.isEmpty
        if selecting, chosen.isEmpty, chosenBroken.isEmpty {
            let selection = Selection.describe(
                filters: options.filters, tags: options.tags, excludedTags: options.excludedTags)
            Output.err("stackplay: no test matches \(selection)")
            return ExitCode.failure
        }
        if options.list {
            for test in chosen {
                let tags = test.tags.isEmpty ? "" : " [" + test.tags.joined(separator: ", ") + "]"
                Output.out(test.fullName + tags + (test.skipped ? " (skipped)" : ""))
            }
            for test in chosenBroken { Output.out(test.fullName + " (does not load)") }
            return chosenBroken.isEmpty ? ExitCode.success : ExitCode.failure
        }

        // A whole script in its plain variant already ran: only the others go to the workers (and
        // without whole scripts the results are used as they come: a 10,000-test run holds no copy).
        func ranAlready(_ test: TestCase) -> TestResult? {
            ranWhole[test.file].flatMap { $0.test == test ? $0 : nil }
        }
        let pending = ranWhole.isEmpty ? chosen : chosen.filter { ranAlready($0) == nil }
        var ran: [TestResult?]
        let runEnded: Bool
        (ran, runEnded) = isolated.run(pending)
        if !ranWhole.isEmpty {
            var next = ran.makeIterator()
            ran = chosen.map { test in ranAlready(test) ?? next.next() ?? nil }
        }
        var results = broken.filter { chosenBroken.contains($0.test) } + ran.compactMap { $0 }
        if options.forbidOnly || options.ci { results = FocusRule.apply(to: results, ci: options.ci) }
        guard runEnded else {
            return Interruption.report(
                results, of: chosen.count, junit: options.junit, format: options.format)
        }
        let (tracedResults, tracesWritten) = TraceOutputs(options: options).apply(to: results)
        results = tracedResults

        guard Reporters.report(results, format: options.format ?? .human, seed: seed, junit: options.junit)
        else {
            return ExitCode.failure
        }
        return Summary(results).failed == 0 && tracesWritten ? ExitCode.success : ExitCode.failure
    }
}
