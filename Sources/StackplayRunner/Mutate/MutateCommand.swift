import Bindings
import StackModel
import TestResults
import Traces

#if canImport(Glibc)
    import Glibc
#endif

/// `stackplay mutate PATH...` (issue 25, docs/mutate.md): how good is the suite? It runs the suite
/// once unmutated (it must pass), then once against each behavioural mutant of the catalogue
/// (``Mutant/catalogue``), each run its own `stackplay` process with `STACKPLAY_MUTANT` set,
/// `--jobs` of them at once, each stopping at its first failed test (`--bail`). The run's selection
/// flags (`--filter`, `--tag`, `--matrix`, `--mirror`, `--audit`, ...) are passed on to every run.
enum MutateCommand {
    /// What became of one mutant.
    struct Outcome {
        enum Status: String {
            case killed = "Killed"
            case survived = "Survived"
            case timeout = "Timeout"
            case runtimeError = "RuntimeError"
        }
        let mutant: Mutant
        var status: Status
        /// The test that killed it, and where it failed (`scripts/x.lua:12`).
        var killedBy: TestResult?
        /// The tests that ran against it.
        var ran: [TestResult] = []
        /// Why: the failure's first line, or what went wrong with the run.
        var reason = ""
        var seconds = 0.0
    }

    /// The flags `mutate` keeps for itself; every other one goes to the runs.
    static let ownFlags: Set<String> = [
        "--mutants", "--exclude-mutants", "--min-score", "--json", "--junit", "--jobs", "--suggest",
    ]

    static func run(_ options: Options, arguments: [String]) -> Int32 {
        guard !options.paths.isEmpty else {
            Output.usageError("mutate needs scripts: stackplay mutate PATH...")
            return ExitCode.usage
        }
        let mutants: [Mutant]
        switch select(options.mutants, excluding: options.excludedMutants) {
        case .success(let chosen): mutants = chosen
        case .failure(let error):
            Output.usageError(error.message)
            return ExitCode.usage
        }
        if let refusal = ReportOutput.check(options, inputs: options.paths, as: "a Lua script") {
            Output.usageError(refusal)
            return ExitCode.usage
        }
        WorkerPool.installSignalHandlers()
        let passed = runArguments(arguments)
        let started = ChildRuns.now()

        // The suite, unmutated: it must pass, or no mutant's run says anything.
        var baseline: [TestResult] = []
        var baselineProblem: String?
        let jobs = options.jobs ?? 2
        let baselineJob = ChildRuns.Job(
            // --forbid-only: an only(...) left in fails here, as it fails every mutant's run (CI=true)
            arguments: passed + ["--json", "--jobs", String(jobs), "--forbid-only"],
            environment: [Mutant.environmentVariable: nil])
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

        var outcomes: [Outcome?] = Array(repeating: nil, count: mutants.count)
        // A mutant that makes a test loop is stopped well before the run's 120 s: at 5 s plus twice
        // the slowest test unmutated, unless the command line gave a --timeout.
        let slowest = baseline.map(\.seconds).max() ?? 0
        let timeout =
            arguments.contains { $0 == "--timeout" || $0.hasPrefix("--timeout=") }
            ? [] : ["--timeout", formatNumber(5 + 2 * slowest)]
        let runs = mutants.map { mutant in
            ChildRuns.Job(
                arguments: passed + timeout + ["--json", "--jobs", "1", "--bail"],
                // CI: a script's `to_match_trace` never records a golden trace from a mutant.
                environment: [Mutant.environmentVariable: mutant.id, "CI": "true"])
        }
        let verdicts = Verdicts(baseline: baseline, timeout: options.timeout, given: timeout.isEmpty)
        let ended = ChildRuns.run(runs, jobs: jobs) { index, ended in
            outcomes[index] = verdicts.checked(judge(mutants[index], ended))
        }
        guard ended else { return 128 + WorkerPool.interruption }
        let report = MutationReport(
            outcomes: outcomes.compactMap { $0 }, baseline: baseline, plainSeconds: plainSeconds,
            seconds: ChildRuns.now() - started, jobs: jobs)
        Output.out(options.format == .json ? report.stryker.text : report.human)
        var written = true
        if let path = options.jsonFile {
            written = ReportOutput(flag: "--json", path: path, kind: .mutationJSON).written(
                report.stryker.text)
        }
        if let path = options.junit {
            written = ReportOutput(flag: "--junit", path: path, kind: .junit).written(report.junit) && written
        }
        guard written else { return ExitCode.failure }
        if let directory = options.suggestDirectory {
            guard
                suggest(
                    for: report.outcomes.filter { $0.status == .survived }.map(\.mutant), options, directory)
            else { return ExitCode.failure }
        }
        if let minimum = options.minimumScore, report.score < minimum {
            Output.err(
                "stackplay mutate: the mutation score \(formatNumber(report.score))% is under --min-score "
                    + formatNumber(minimum))
            return ExitCode.failure
        }
        return ExitCode.success
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
            outcome.ran = results
            guard let failed = results.first(where: { $0.status == .failed }) else {
                if ended.status != 0 {
                    outcome.status = .runtimeError
                    outcome.reason = "the run exited with status \(ended.status)"
                }
                return outcome
            }
            outcome.killedBy = failed
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
