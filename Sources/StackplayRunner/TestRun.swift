import Bindings
import TestResults
import Traces
import Wording
import Workers

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
    /// Sees each result as it is reported (`--last-failed`'s record, `--watch`'s summary).
    var observe: ((TestResult) -> Void)? = nil

    /// `options` with the seed `--random-seed` picks (and says), when it is given; a constant from
    /// then on, which the run's closures read without an access check.
    private func seeded(_ options: Options) -> Options {
        guard options.randomSeed else { return options }
        var options = options
        let picked = Int(UInt64.random(in: 0...UInt64(Int32.max)))
        options.seed = picked
        Output.err("stackplay: seed \(picked) (run again with --seed \(picked))")
        return options
    }

    /// Runs the tests of `scripts`; returns the exit code.
    func run(_ scripts: [Script]) -> Int32 {
        let options = seeded(self.options)
        let modules = StackplayModules.standard(
            screen: screen, recordsTraces: options.recordsTraces, updatesGolden: options.update,
            golden: TraceOutputs(options: options).policy, audit: options.audit)
        let seed = options.seed ?? RunSeed.standard
        var runner = TestRunner(scripts: ScriptRunner(budget: options.budget, modules: modules), seed: seed)
        runner.matrix = options.matrix
        let jobs = options.jobs ?? max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)
        let isolated = IsolatedRunner(
            runner: runner, jobs: jobs, timeout: options.timeout, repeats: options.repeats, bail: options.bail
        )
        WorkerPool.installSignalHandlers()

        // Find every test (a file that does not load is one failed test), then choose and run.
        let lone = LoneFile.wholeScript(scripts, options: options)
        let format = options.format ?? .human
        // Each result is reported as it comes, in the tests' order, when nothing needs them all
        // first (trace outputs; TAP's plan counts them): a 10,000-test run holds no 10,000 results.
        let reported = Reported()
        var chosen: [TestCase] = []
        // Whole scripts that finding their tests ran, by file: their run is that result.
        var ranWhole: [ByteKey: TestResult] = [:]
        // the files that do not load that the run reports, by the index among the chosen of the
        // test they come before (a file's report is in its place among the files')
        var brokenBefore: [Int: [TestResult]] = [:]
        // the chosen tests that go to the workers, by their index among the chosen
        var pendingAt: [Int] = []
        var next = 0
        // the exit code of a run that ends once its tests are found (`--list`, no test matches)
        var early: Int32? = nil
        let selecting =
            !options.filters.isEmpty || !options.tags.isEmpty || !options.excludedTags.isEmpty
            || options.picks != nil

        /// The tests of one file that the run chooses (every test under each matrix variant, and
        /// its mirrored copy, as the filters and tags keep them; the shard is the whole run's).
        func chosenTests(of found: TestRunner.Discovered) -> [TestCase] {
            guard case .success(let cases) = found.outcome,
                !EmptyScript.isEmpty(cases, scanned: lone?.isEmpty)
            else { return [] }
            var tests = options.matrix.apply(to: options.picks?.apply(cases) ?? cases)
            if options.mirror { tests = tests.flatMap { [$0, $0.under($0.variant.mirrored)] } }
            return Selection.apply(
                tests, filters: options.filters, tags: options.tags, excludedTags: options.excludedTags,
                shard: nil)
        }
        /// The whole script's run that finding `found`'s tests was: the result of its plain variant.
        func wholeRun(of found: TestRunner.Discovered) -> TestResult? {
            options.repeats == 1 ? found.ran : nil
        }
        /// The failure of a file that does not load (or is empty), nil for one that does.
        func failure(of found: TestRunner.Discovered) -> TestResult? {
            switch found.outcome {
            case .success(let cases) where EmptyScript.isEmpty(cases, scanned: lone?.isEmpty):
                EmptyScript.failure(cases[0])
            case .success: nil
            case .failure(let failed): failed
            }
        }
        /// Whether the run reports `failed`, a file that does not load: it has no tags (a tag
        /// selection leaves it out), a filter may keep it.
        func reports(_ failed: TestResult) -> Bool {
            options.tags.isEmpty
                && !Selection.apply([failed.test], filters: options.filters, shard: nil).isEmpty
        }
        func sayFallback(_ found: TestRunner.Discovered) {
            guard options.verbose, let why = found.fallback, case .success(let cases) = found.outcome,
                let file = cases.first?.file
            else { return }
            Output.err("stackplay: \(file): each test runs the file's top level again: \(why)")
        }
        func sayNoMatch() {
            let selection = Selection.describe(
                filters: options.filters, tags: options.tags, excludedTags: options.excludedTags)
            Output.err("stackplay: no test matches \(selection)")
        }
        func sayFreshStates() {
            guard options.verbose, let reason = StatePolicies.offReason else { return }
            Output.err("stackplay: every test runs in a fresh Lua state (\(reason))")
        }
        func makeStream() {
            // --repeat compares the results with another process's before reporting them
            reported.stream =
                options.recordsTraces || format == .tap || options.repeats > 1
                ? nil
                : ReportStream(
                    format: format, seed: seed, junit: options.junit, jsonFile: options.jsonFile,
                    repeats: options.repeats)
        }
        func ranAlready(_ test: TestCase) -> TestResult? {
            ranWhole[ByteKey(test.file)].flatMap { $0.test == test ? $0 : nil }
        }
        func finished(_ result: TestResult) {
            var result = result
            if options.forbidOnly || options.ci { result = FocusRule.apply(to: [result], ci: options.ci)[0] }
            // (added in place: no copy of the stream, as comparing it with nil made)
            observe?(result)
            if reported.stream?.add(result) == nil { reported.results.append(result) }
        }
        // What goes before the chosen test `end`'s result: the whole scripts' results of the chosen
        // tests before it that already ran, and the files that do not load before each.
        func inPlace(before end: Int) {
            while next <= end {
                for failed in brokenBefore.removeValue(forKey: next) ?? [] { finished(failed) }
                guard next < end else { return }
                if let whole = ranAlready(chosen[next]) { finished(whole) }
                next += 1
            }
        }
        func deliver(_ index: Int, _ result: TestResult) {
            let at = pendingAt.isEmpty ? index : pendingAt[index]
            inPlace(before: at)
            next = at + 1
            finished(result)
        }
        /// Chooses among the tests `discovered` found and readies the report; false when the run
        /// ends here (`early` says how).
        func begin(_ discovered: [TestRunner.Discovered]) -> Bool {
            sayFreshStates()
            // the files that do not load that the run reports, and the file of each chosen test
            var broken: [(failed: TestResult, file: Int)] = []
            var fileOf: [Int] = []
            for (file, found) in discovered.enumerated() {
                sayFallback(found)
                if let failed = failure(of: found) {
                    if reports(failed) { broken.append((failed, file)) }
                    continue
                }
                let tests = chosenTests(of: found)
                chosen += tests
                fileOf += repeatElement(file, count: tests.count)
                if let ran = wholeRun(of: found) { ranWhole[ByteKey(ran.test.file)] = ran }
            }
            if let shard = options.shard {
                // the shard's tests, in order, each still with its file
                let kept = Selection.apply(chosen, filters: [], shard: shard, timings: timings)
                var keptFiles: [Int] = []
                keptFiles.reserveCapacity(kept.count)
                for (index, test) in chosen.enumerated()
                where keptFiles.count < kept.count && kept[keptFiles.count].isSameStorage(as: test) {
                    keptFiles.append(fileOf[index])
                }
                chosen = kept
                fileOf = keptFiles
            }
            if selecting, chosen.isEmpty, broken.isEmpty {
                sayNoMatch()
                early = ExitCode.failure
                return false
            }
            if options.list, options.format == .json {
                // One JSON document (`stackplay studio` reads it): each test's file, name, line and tags.
                let listed = chosen.map { test -> JSONValue in
                    .object([
                        ("file", .string(test.file)), ("name", .string(test.name)),
                        ("position", .string(test.position)), ("tags", .array(test.tags.map { .string($0) })),
                        ("skipped", .bool(test.skipped)),
                    ])
                }
                let files = broken.map { JSONValue.string($0.failed.test.file) }
                Output.out(JSONValue.object([("tests", .array(listed)), ("broken", .array(files))]).text)
                early = broken.isEmpty ? ExitCode.success : ExitCode.failure
                return false
            }
            if options.list {
                for test in chosen {
                    // variants in brackets (`[rtl, AX5]`, part of the name), tags named apart
                    let tags = test.tags.isEmpty ? "" : " (tags: " + test.tags.joined(separator: ", ") + ")"
                    Output.out(terminalSafe(test.fullName + tags) + (test.skipped ? " (skipped)" : ""))
                }
                for (failed, _) in broken {
                    Output.out(terminalSafe(failed.test.fullName) + " (does not load)")
                }
                early = broken.isEmpty ? ExitCode.success : ExitCode.failure
                return false
            }
            makeStream()
            // a file that does not load goes before the first chosen test of a file after it
            var at = 0
            for (failed, file) in broken {
                while at < fileOf.count, fileOf[at] < file { at += 1 }
                brokenBefore[at, default: []].append(failed)
            }
            // A whole script in its plain variant already ran: only the others go to the workers.
            pendingAt = ranWhole.isEmpty ? [] : chosen.indices.filter { ranAlready(chosen[$0]) == nil }
            return true
        }

        // A file's tests run as they are, in their order: its worker starts them as it finds them.
        let runsAsFound =
            options.matrix.isEmpty && !options.mirror && options.filters.isEmpty && options.tags.isEmpty
            && options.excludedTags.isEmpty && options.picks == nil
        let runEnded: Bool
        // how many tests the run chose (an interrupted run says how many of them finished)
        var total = 0
        if lone == nil, options.shard == nil, !options.list, !options.bail {
            // Each file's tests run as soon as it is discovered, and each file is reported as soon
            // as the files before it are (nothing chooses among them all).
            sayFreshStates()
            makeStream()
            var reported = false
            // each file's chosen tests, from its discovery to its report
            var chosenOf: [Int: [TestCase]] = [:]
            runEnded = Output.buffered {
                isolated.discoverAndRun(
                    scripts, running: runsAsFound ? IsolatedRunner.runningAfterDiscovery : 0
                ) { file, found in
                    let tests = chosenTests(of: found)
                    chosenOf[file] = tests
                    guard let ran = wholeRun(of: found) else { return tests }
                    return tests.filter { $0 != ran.test }
                } found: { file, found in
                    let tests = chosenOf.removeValue(forKey: file) ?? []
                    sayFallback(found)
                    if let failed = failure(of: found) {
                        if reports(failed) {
                            finished(failed)
                            reported = true
                        }
                        return
                    }
                    total += tests.count
                    // its plain run is the first of its chosen tests, when it is one of them
                    if let ran = wholeRun(of: found), let first = tests.first, first == ran.test {
                        finished(ran)
                    }
                } deliver: {
                    finished($0)
                }
            }
            if runEnded, selecting, total == 0, !reported {
                sayNoMatch()
                return ExitCode.failure
            }
        } else {
            let (discovered, discoveryEnded) =
                lone != nil
                ? ([LoneFile.load(scripts[0], runner: runner)], WorkerPool.interruption == 0)
                : isolated.discover(scripts)
            guard discoveryEnded else {
                return Interruption.report([], of: 0, options: options)
            }
            guard begin(discovered) else { return early ?? ExitCode.failure }
            let pending = ranWhole.isEmpty ? chosen : chosen.filter { ranAlready($0) == nil }
            runEnded = Output.buffered { isolated.run(pending, deliver: deliver) }
            inPlace(before: chosen.count)
            total = chosen.count
        }
        if var stream = reported.stream {
            let written = stream.end(interrupted: !runEnded)
            guard runEnded else { return Interruption.ended(finished: stream.count, of: total) }
            return written && stream.summary.failed == 0 ? ExitCode.success : ExitCode.failure
        }
        guard runEnded else {
            return Interruption.report(reported.results, of: total, options: options)
        }
        var ran = reported.results
        if options.repeats > 1 {
            guard let compared = RepeatElsewhere.compare(ran, options: options, seed: seed) else {
                return Interruption.report(ran, of: total, options: options)
            }
            ran = compared
        }
        let (results, tracesWritten) = TraceOutputs(options: options).apply(to: ran)

        guard
            Reporters.report(
                results, format: format, seed: seed, junit: options.junit, jsonFile: options.jsonFile,
                repeats: options.repeats)
        else {
            return ExitCode.failure
        }
        return Summary(results).failed == 0 && tracesWritten ? ExitCode.success : ExitCode.failure
    }
}

/// Where a run's results go as they finish: its report stream, or, when the report needs them all
/// first, a list. Unchecked exclusivity: one thread, and it is written at every result.
private final class Reported {
    @exclusivity(unchecked) var stream: ReportStream? = nil
    @exclusivity(unchecked) var results: [TestResult] = []
}
