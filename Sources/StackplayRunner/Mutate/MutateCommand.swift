import Bindings
import StackModel
import TestResults
import Traces
import Workers

#if canImport(Glibc)
    import Glibc
#endif

/// `stackplay mutate PATH...` (issue 25, docs/mutate.md): how good is the suite? It runs the suite
/// once unmutated (it must pass), then once against each behavioural mutant of the catalogue
/// (``Mutant/catalogue``), each run its own `stackplay` process with `STACKPLAY_MUTANT` set,
/// `--jobs` of them at once, each stopping at its first failed test (`--bail`). The run's selection
/// flags (`--filter`, `--tag`, `--matrix`, `--mirror`, `--audit`, ...) are passed on to every run.
enum MutateCommand {
    typealias Outcome = MutantOutcome

    /// The flags `mutate` keeps for itself; every other one goes to the runs.
    static let ownFlags: Set<String> = [
        "--mutants", "--exclude-mutants", "--min-score", "--json", "--junit", "--jobs", "--suggest",
        "--shard", "--incremental", "--html", "--include-equivalent", "--artifacts",
    ]

    /// Bazel's variables: `mutate` reads them (the shard, the JUnit file, the outputs folder); the
    /// runs it starts must not, or each would run one shard of the tests and write Bazel's files.
    static let bazelVariables = [
        "TEST_TOTAL_SHARDS", "TEST_SHARD_INDEX", "TEST_SHARD_STATUS_FILE", "XML_OUTPUT_FILE",
        "TEST_PREMATURE_EXIT_FILE", "TEST_UNDECLARED_OUTPUTS_DIR",
    ]

    static func run(_ given: Options, arguments: [String]) -> Int32 {
        var options = given
        guard !options.paths.isEmpty else {
            Output.usageError("mutate needs scripts: stackplay mutate PATH...")
            return ExitCode.usage
        }
        var bazel: BazelTest
        do { bazel = try BazelTest.fromEnvironment() } catch {
            Output.usageError(error.message)
            return ExitCode.usage
        }
        // Flags win over Bazel's variables.
        bazel.apply(to: &options)
        var mutants: [Mutant]
        switch select(options.mutants, excluding: options.excludedMutants) {
        case .success(let chosen): mutants = chosen
        case .failure(let error):
            Output.usageError(error.message)
            return ExitCode.usage
        }
        if let shard = options.shard { mutants = Self.shard(mutants, shard) }
        if let refusal = ReportOutput.check(options, inputs: options.paths, as: "a Lua script") {
            Output.usageError(refusal)
            return ExitCode.usage
        }
        var previous: MutationReport?
        if let path = options.incrementalFile {
            switch Incremental.previous(path) {
            case .success(let report): previous = report
            case .failure(let problem):
                Output.usageError(problem.description)
                return ExitCode.usage
            }
        }
        bazel.begin()
        let code = execute(options, arguments: arguments, mutants: mutants, previous: previous)
        bazel.end(exitCode: code)
        return code
    }

    /// The `index`-th of `count` shards of `mutants` (every `count`-th from the `index`-th): the
    /// same list always splits the same way, and the shards together hold every mutant once.
    static func shard(_ mutants: [Mutant], _ shard: (index: Int, count: Int)) -> [Mutant] {
        mutants.enumerated().filter { $0.offset % shard.count == shard.index - 1 }.map(\.element)
    }

    private static func execute(
        _ options: Options, arguments: [String], mutants: [Mutant], previous: MutationReport?
    ) -> Int32 {
        WorkerPool.installSignalHandlers()
        let passed = runArguments(arguments)
        let started = ChildRuns.now()
        var unset: [String: String?] = [Mutant.environmentVariable: nil]
        for name in bazelVariables { unset[name] = nil as String? }

        // The suite, unmutated: it must pass, or no mutant's run says anything.
        var baseline: [TestResult] = []
        var baselineProblem: String?
        let jobs = options.jobs ?? 2
        let baselineJob = ChildRuns.Job(
            // --forbid-only: an only(...) left in fails here, as it fails every mutant's run (CI=true)
            arguments: passed + ["--json", "--jobs", String(jobs), "--forbid-only"], environment: unset)
        guard
            ChildRuns.run(
                [baselineJob], jobs: 1,
                done: { _, ended in
                    switch parse(ended) {
                    case .success(let results):
                        baseline = results
                        let failed = results.filter { $0.status == .failed }
                        if !failed.isEmpty {
                            baselineProblem =
                                "the suite fails without a mutant (\(failed.count) failed), so no mutant can be judged:\n"
                                + failed.prefix(5).map { "  \($0.test.fullName): \(firstLine($0.message))" }
                                .joined(
                                    separator: "\n")
                        } else if results.isEmpty {
                            baselineProblem = "no test ran: nothing to kill a mutant with"
                        }
                    case .failure(let problem): baselineProblem = problem.message
                    }
                })
        else { return 128 + WorkerPool.interruption }
        if let baselineProblem {
            Output.err("stackplay mutate: \(baselineProblem)")
            return ExitCode.failure
        }
        let plainSeconds = ChildRuns.now() - started
        var report = MutationReport(
            outcomes: [], tests: baseline.map(suiteTest), sources: [:], plainSeconds: plainSeconds,
            seconds: 0, jobs: jobs, arguments: passed, shard: options.shard,
            projectRoot: MutationReport.workingDirectory)
        for test in report.tests where report.sources[test.file] == nil {
            report.sources[test.file] = try? TraceFile.read(test.file)
        }

        var outcomes: [Outcome?] = mutants.map { mutant in
            guard !options.includeEquivalent, let reason = Equivalents.reason(mutant) else { return nil }
            return Outcome(mutant: mutant, status: .ignored, reason: reason)
        }
        if let path = options.incrementalFile {
            let reusable = previous.map { Incremental.reusable(from: $0, for: report) } ?? [:]
            for index in mutants.indices where outcomes[index] == nil {
                outcomes[index] = reusable[mutants[index].id]
            }
            report.reused = outcomes.filter { $0?.reused == true }.count
            report.reusedFrom = previous == nil ? path + " (none yet)" : path
        }
        // A mutant that makes a test loop is stopped well before the run's 120 s: at 5 s plus twice
        // the slowest test unmutated, unless the command line gave a --timeout.
        let slowest = baseline.map(\.seconds).max() ?? 0
        let timeout =
            arguments.contains { $0 == "--timeout" || $0.hasPrefix("--timeout=") }
            ? [] : ["--timeout", formatNumber(5 + 2 * slowest)]
        let pending = mutants.indices.filter { outcomes[$0] == nil }
        let runs = pending.map { index in
            var environment = unset
            environment[Mutant.environmentVariable] = mutants[index].id
            // CI: a script's `to_match_trace` never records a golden trace from a mutant.
            environment["CI"] = "true"
            environment[Mutant.reachedVariable] = reachedFile(index)
            var artifacts: [String] = []
            if let folder = options.artifactsDirectory {
                artifacts = ["--artifacts", MutationPage.traceFolder(folder, mutants[index])]
            }
            return ChildRuns.Job(
                arguments: passed + timeout + artifacts + ["--json", "--jobs", "1", "--bail"],
                environment: environment)
        }
        let verdicts = Verdicts(baseline: baseline, timeout: options.timeout, given: timeout.isEmpty)
        for index in pending { unlink(reachedFile(index)) }
        let ended = ChildRuns.run(runs, jobs: jobs) { slot, ended in
            let index = pending[slot]
            var outcome = verdicts.checked(judge(mutants[index], ended))
            // A survivor whose mutated point no test reached: Stryker's NoCoverage.
            if outcome.status == .survived, !TraceFile.exists(reachedFile(index)) {
                outcome.status = .noCoverage
                outcome.reason = "no test reached its mutated point"
            }
            unlink(reachedFile(index))
            // A run no test failed in has no trace to link: its page of passes goes.
            if let folder = options.artifactsDirectory, outcome.killer == nil {
                let traces = MutationPage.traceFolder(folder, mutants[index])
                unlink(traces + "/report.html")
                rmdir(traces)
            }
            outcomes[index] = outcome
        }
        guard ended else { return 128 + WorkerPool.interruption }
        report.outcomes = outcomes.compactMap { $0 }
        report.seconds = ChildRuns.now() - started
        Output.out(options.format == .json ? report.stryker.text : report.human)
        var ok = true
        if let directory = options.suggestDirectory {
            ok = suggest(
                for: report.outcomes.filter { $0.status == .survived || $0.status == .noCoverage }.map(
                    \.mutant),
                options, directory)
        }
        guard report.written(options), ok else { return ExitCode.failure }
        if let minimum = options.minimumScore, report.score < minimum {
            Output.err(
                "stackplay mutate: the mutation score \(formatNumber(report.score))% is under --min-score "
                    + formatNumber(minimum))
            return ExitCode.failure
        }
        return ExitCode.success
    }

    /// The file a mutant's run creates when the mutated point is reached (``Mutant/reachedVariable``).
    private static func reachedFile(_ index: Int) -> String {
        let folder = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return "\(folder)/stackplay-mutate-\(getpid())-\(index).reached"
    }

    /// A test of the unmutated run, as the report lists it.
    static func suiteTest(_ result: TestResult) -> MutationReport.SuiteTest {
        MutationReport.SuiteTest(
            id: result.test.fullName, name: result.test.name, file: result.test.file,
            line: result.test.position.split(separator: ":").last.flatMap { Int($0) } ?? 1)
    }

    /// The search budget of `--suggest`: runs of steps, for each survivor.
    static let suggestRuns = 40
    static let suggestSteps = 25

    /// `--suggest DIR`: a test for each survivor, or why there is none.
    static func suggest(for survivors: [Mutant], _ options: Options, _ directory: String) -> Bool {
        let scratch = directory + "/.suggest-scratch"
        do {
            try TraceFile.makeDirectory(directory)
            try TraceFile.makeDirectory(scratch)
        } catch {
            Output.err("stackplay: \(error.message)")
            return false
        }
        defer { removeScratch(scratch) }
        let runner = ScriptRunner(
            budget: options.budget, modules: StackplayModules.standard(screen: ScreenDefaults()))
        let search = Suggest(
            runs: suggestRuns, steps: suggestSteps, seed: options.seed ?? RunSeed.standard,
            jobs: options.jobs ?? 2)
        var ok = true
        // the suite's own flags (a --matrix, --mirror, --audit, the seed, the budgets), without its paths
        let flags = runArguments(options.arguments).filter { !options.paths.contains($0) }
        for mutant in survivors {
            switch search.find(mutant, runner: runner, directory: directory, scratch: scratch) {
            case .test(let path, let steps, let world):
                if let failure = SuggestCheck.failure(of: path, flags: flags) {
                    // written by this run (ReportOutput refused anything else), so removed by it
                    unlink(path)
                    Output.err(
                        "stackplay mutate --suggest: \(mutant.id): the test found fails on the real model "
                            + "under the suite's flags (\(failure)): not written")
                    continue
                }
                Output.out(
                    "suggested: \(path) (\(steps) step\(steps == 1 ? "" : "s") from \(world)) kills \(mutant.id)"
                )
            case .none(let steps, let worlds):
                Output.out(
                    "no difference found for \(mutant.id) in \(steps) steps from \(worlds) screens (possibly equivalent)"
                )
            case .broken(let message):
                Output.err("stackplay mutate --suggest: \(mutant.id): \(message)")
                ok = false
            }
        }
        return ok
    }

    private static func removeScratch(_ folder: String) {
        unlink(folder + "/probe.lua")
        unlink(folder + "/real.lua")
        unlink(folder + "/suggest.lua")
        rmdir(folder)
    }

    /// The catalogue narrowed by `--mutants` and `--exclude-mutants` (ids or SPEC ids); every
    /// name must match something.
    static func select(_ names: [String], excluding excluded: [String]) -> Result<
        [Mutant], Options.UsageError
    > {
        for (flag, list) in [("--mutants", names), ("--exclude-mutants", excluded)] {
            for name in list where !Mutant.catalogue.contains(where: { $0.id == name || $0.spec == name }) {
                var message = "\(flag): no mutant or SPEC id '\(name)'"
                if let near = nearestName(
                    to: name, in: Mutant.catalogue.map(\.id) + Mutant.catalogue.map(\.spec))
                {
                    message += " (did you mean '\(near)'?)"
                }
                return .failure(Options.UsageError(message: message))
            }
        }
        func named(_ mutant: Mutant, _ list: [String]) -> Bool {
            list.contains(mutant.id) || list.contains(mutant.spec)
        }
        return .success(
            Mutant.catalogue.filter { (names.isEmpty || named($0, names)) && !named($0, excluded) })
    }

    /// The command line of each run: `mutate`'s own flags (and their values) taken out.
    static func runArguments(_ arguments: [String], dropping ownFlags: Set<String> = ownFlags) -> [String] {
        var rest = arguments.first == "mutate" ? arguments.dropFirst() : arguments[...]
        var kept: [String] = []
        var onlyPaths = false
        while let argument = rest.popFirst() {
            if onlyPaths || !argument.hasPrefix("-") || argument == "-" {
                kept.append(argument)
                continue
            }
            if argument == "--" { onlyPaths = true }
            let name = String(argument.prefix { $0 != "=" })
            guard ownFlags.contains(name) else {
                kept.append(argument)
                if !argument.contains("="), let spec = Options.specs[name], case .value = spec.argument,
                    let value = rest.popFirst()
                {
                    kept.append(value)
                }
                continue
            }
            if !argument.contains("="), case .value = Options.specs[name]?.argument { _ = rest.popFirst() }
        }
        return kept
    }

    /// One run's results, from its `--json` report.
    static func parse(_ ended: ChildRuns.Ended) -> Result<[TestResult], RunProblem> {
        guard ended.status >= 0 else {
            return .failure(RunProblem(message: "could not start \(ChildRuns.executable)"))
        }
        do { return .success(try Merge.read(ended.stdout, path: "the run's --json report").results) } catch {
            return .failure(
                RunProblem(
                    message: "the run ended with status \(ended.status) and no readable report (\(error))"))
        }
    }

    /// A mutant's outcome from its run: killed by the first failed test, timed out or errored
    /// (counted apart, as Stryker's `Timeout` and `RuntimeError`), or survived.
    static func judge(_ mutant: Mutant, _ ended: ChildRuns.Ended) -> Outcome {
        var outcome = Outcome(mutant: mutant, status: .survived, seconds: ended.seconds)
        switch parse(ended) {
        case .failure(let problem):
            outcome.status = .runtimeError
            outcome.reason = problem.message
        case .success(let results):
            outcome.coveredBy = results.map(\.test.fullName)
            guard let failed = results.first(where: { $0.status == .failed }) else {
                if ended.status != 0 {
                    outcome.status = .runtimeError
                    outcome.reason = "the run exited with status \(ended.status)"
                }
                return outcome
            }
            outcome.killer = Outcome.Killer(
                test: failed.test.fullName, file: failed.test.file,
                at: failed.position.isEmpty ? failed.test.position : failed.position)
            outcome.reason = firstLine(failed.message)
            if failed.message.contains("timed out") || failed.message.contains("stopped: the script used") {
                outcome.status = .timeout
            } else if failed.kind == .error {
                outcome.status = .runtimeError
            } else {
                outcome.status = .killed
            }
        }
        return outcome
    }

    /// Why a run said nothing readable.
    struct RunProblem: Error { let message: String }

    static func firstLine(_ text: String) -> String { String(text.prefix { $0 != "\n" }) }

}
