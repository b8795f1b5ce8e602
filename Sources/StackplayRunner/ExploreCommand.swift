import Bindings
import Exploration
import StackModel
import TestResults
import Traces
import Workers

#if canImport(Glibc)
    import Glibc
#endif

/// `stackplay explore FILE|DIR ...`: runs every exploration the files declare, each in a worker
/// process (`--jobs` at once) with a Lua state of its own, and reports them in the order they are
/// declared. A failure is shrunk, shown step by step with the frame after each step, and written
/// to `--out DIR` as `<exploration>.lua` (a stackplay test that fails the same way) and
/// `<exploration>.jsonl` (its trace); `--artifacts DIR` adds an SVG of every step. A rerun
/// removes the files in `--out` of an exploration that failed before and passes now
/// (``ExploreOutputs``), never a file it did not write.
enum ExploreCommand {
    static let defaultOut = "explore-out"

    /// One exploration to run: the file and its index there.
    struct Job {
        var script: Script
        var index: Int
        var name: String
        /// The name of its files in `--out` and `--artifacts` (``slug(_:)``, made unique in the run).
        var fileName = ""
    }

    static func run(_ options: inout Options) -> Int32 {
        let config: Config
        do { config = try Config.load(for: options) } catch {
            Output.usageError(error.message)
            return ExitCode.usage
        }
        let paths = options.paths
        config.apply(to: &options)
        guard !paths.isEmpty else {
            Output.usageError("explore needs at least one file or folder")
            return ExitCode.usage
        }
        let scripts: [Script]
        do { scripts = try Discovery.scripts(in: paths, root: options.root) } catch {
            Output.usageError(error.message)
            return ExitCode.usage
        }
        if options.randomSeed {
            options.seed = Int(UInt64.random(in: 0...UInt64(Int32.max)))
        }
        let seed = options.seed ?? RunSeed.standard
        // Each call into the file (its top level, a setup, an action, the invariants of a step)
        // has the CPU budget of a test: a loop in one, in Lua, C or Swift, stops there.
        let runner = ScriptRunner(
            budget: options.budget, modules: StackplayModules.standard(screen: config.screen))
        var jobs: [Job] = []
        var failed = 0
        for script in scripts {
            do {
                let file = try LuaExplorationFile(
                    file: script.path, root: script.root, runner: runner, seed: seed)
                for (index, info) in file.explorations.enumerated() {
                    jobs.append(Job(script: script, index: index, name: info.name))
                }
            } catch {
                // A file named alone must load; in a folder, scripts that are not explorations
                // are no concern of explore, but one that does not load is reported.
                Output.err("stackplay: \(error.message)")
                failed += 1
            }
        }
        uniqueFileNames(&jobs)
        guard !jobs.isEmpty else {
            Output.err(
                "stackplay: no explorations in \(paths.joined(separator: ", ")) (declare them with explore(name, { ... }))"
            )
            return ExitCode.failure
        }
        let explore = ExploreBudget(
            seed: seed, runs: options.exploreRuns ?? 100, steps: options.exploreSteps ?? 100,
            seconds: options.exploreSeconds)
        let out = options.exploreOut ?? defaultOut
        let artifacts = options.artifactsDirectory
        let command = { (job: Job) in
            "stackplay explore \(job.script.path) --seed \(seed) --runs \(explore.runs) --steps \(explore.steps)"
        }
        Output.out("exploring with seed \(seed) (run again with --seed \(seed))")
        WorkerPool.installSignalHandlers()
        var answers = [[UInt8]?](repeating: nil, count: jobs.count)
        let workers = options.jobs ?? max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)
        // `--time` is a hard bound: the search and the shrinking stop at it, and a worker still
        // busy a little later (a call that does not return) is killed.
        let pool = WorkerPool(
            workers: workers, count: jobs.count, timeout: hardBound(explore.seconds), hooks: .runner
        ) { index in
            let job = jobs[index]
            let (verdict, report) = runJob(
                job, runner: runner, budget: explore, out: out, artifacts: artifacts, command: command(job))
            return [verdict.rawValue] + Array(report.utf8)
        }
        var crashed: [Int: String] = [:]
        let ended = pool.run { index, outcome in
            switch outcome {
            case .finished(let bytes): answers[index] = bytes
            case .crashed(let signal, let status):
                crashed[index] = signal.map { "crashed: signal \($0)" } ?? "its process exited with \(status)"
            case .timedOut(let seconds):
                // A run longer than --time stops between two steps with no verdict (``Explorer``);
                // a call still running 2 s past it does not return: a hang, which fails.
                crashed[index] =
                    "still running \(formatNumber(seconds)) s after it began, past --time "
                    + "\(formatNumber(explore.seconds ?? 0)): its process was killed"
            case .stopped(let message, _, _): crashed[index] = message
            }
        }
        var passed = 0
        var undecided = 0
        var finished: [(script: String, exploration: String, passed: Bool, files: [String])] = []
        for (index, job) in jobs.enumerated() {
            if let answer = answers[index], let status = answer.first {
                // a name's escape sequences shown, never sent to the terminal
                Output.out(terminalSafe(String(decoding: answer.dropFirst(), as: UTF8.self), newlines: true))
                if status == Verdict.unfinished.rawValue {
                    undecided += 1
                } else if status == Verdict.passed.rawValue {
                    passed += 1
                } else {
                    failed += 1
                }
                // What a failure wrote (a setup that failed wrote nothing).
                let files = ["\(job.fileName).lua", "\(job.fileName).jsonl"].filter {
                    status == Verdict.failed.rawValue && Discovery.kind(of: "\(out)/\($0)") == .file
                }
                // one without a verdict keeps the files an earlier failure wrote
                if status != Verdict.unfinished.rawValue {
                    finished.append((job.script.path, job.name, status == Verdict.passed.rawValue, files))
                }
            } else {
                Output.out(
                    terminalSafe(
                        "  FAIL \(job.name) (\(job.script.path)): \(crashed[index] ?? "did not finish")",
                        newlines: true))
                failed += 1
            }
        }
        if ended, Discovery.kind(of: out) == .folder {
            var outputs = ExploreOutputs(out: out)
            let removed = outputs.update(finished: finished)
            if !removed.isEmpty {
                Output.out(
                    "removed \(removed.count) stale file\(removed.count == 1 ? "" : "s") an earlier run wrote: "
                        + removed.joined(separator: ", "))
            }
        }
        let noVerdict = undecided == 0 ? "" : ", \(undecided) without a verdict (--time)"
        Output.out("\(passed) explored, \(failed) failed\(noVerdict) (seed \(seed))")
        guard ended else { return WorkerPool.interruption == SIGTERM ? 143 : 130 }
        return failed == 0 ? ExitCode.success : ExitCode.failure
    }

    /// The wall-clock seconds after which a worker still running an exploration is killed: a
    /// little past `--time` (the report after the search takes a moment too); 0 (no bound) without it.
    static func hardBound(_ seconds: Double?) -> Double {
        guard let seconds, seconds > 0 else { return 0 }
        return seconds + 2 + seconds / 10
    }

    /// What one exploration's worker answers first.
    enum Verdict: UInt8 {
        case failed = 0
        case passed = 1
        /// `--time` ended it before a run completed, and no invariant broke: no verdict.
        case unfinished = 2
    }

    /// Runs one exploration in this process; the report's text and its verdict.
    static func runJob(
        _ job: Job, runner: ScriptRunner, budget: ExploreBudget, out: String, artifacts: String?,
        command: String
    ) -> (Verdict, String) {
        let file: LuaExplorationFile
        do {
            file = try LuaExplorationFile(
                file: job.script.path, root: job.script.root, runner: runner, seed: budget.seed)
        } catch {
            return (.failed, "  FAIL \(job.name): \(error.message)")
        }
        let explorer = file.explorer(job.index, budget: budget)
        let position = file.explorations[job.index].position
        switch explorer.explore() {
        case .passed(let runs, let steps, let seconds):
            return (
                .passed,
                "  ok   \(job.name) (\(position)): \(runs) runs, \(steps) steps in \(formatNumber((seconds * 100).rounded() / 100)) s"
                    + " (\(Int(Double(steps) / max(seconds, 1e-9))) steps/s)"
            )
        case .unfinished(let steps, let seconds):
            return (
                .unfinished,
                "  --   \(job.name) (\(position)): no verdict: --time \(formatNumber(budget.seconds ?? 0)) s ended "
                    + "the search during its first run, after \(steps) step\(steps == 1 ? "" : "s") in "
                    + "\(formatNumber((seconds * 100).rounded() / 100)) s; 0 runs completed and no invariant broke"
            )
        case .broken(let message):
            return (.failed, "  FAIL \(job.name) (\(position)): the setup failed: \(message)")
        case .failed(let example, _, _, _):
            return (
                .failed,
                report(
                    example, job: job, file: file, explorer: explorer, out: out, artifacts: artifacts,
                    command: command, runner: runner, seed: budget.seed)
            )
        }
    }

    /// A file name from an exploration's name: `No card is ever dismissed!` → `no_card_is_ever_dismissed`.
    static func slug(_ name: String) -> String {
        var out = ""
        for scalar in name.lowercased().unicodeScalars {
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else if !out.hasSuffix("_") {
                out += "_"
            }
        }
        while out.hasSuffix("_") { out.removeLast() }
        return out.isEmpty ? "exploration" : out
    }

    /// Gives each job its file name: the slug of its name, and `_2`, `_3`, ... after it for a
    /// later exploration whose name makes the same slug ("a b" and "a_b"), so that no
    /// reproducer overwrites another's.
    static func uniqueFileNames(_ jobs: inout [Job]) {
        var taken: Set<String> = []
        for index in jobs.indices {
            let base = String(slug(jobs[index].name).prefix(80))
            var name = base
            var number = 1
            while taken.contains(name) {
                number += 1
                name = "\(base)_\(number)"
            }
            taken.insert(name)
            jobs[index].fileName = name
        }
    }

    /// Why the scenario written at `reproducer` is no reproducer of `failure`, or nil when its
    /// test fails as the exploration did (run here, as `stackplay FILE` runs it). The invariants
    /// checked only on the explorer's side (`replay`, `lua_api`, `mirror`) pass there by design
    /// (the scenario says how to see them) and are not run.
    static func checkFails(
        reproducer: String, job: Job, runner: ScriptRunner, seed: Int, failure: ExploreFailure
    ) -> String? {
        guard !Explorer.sampledInvariants.contains(failure.invariant) else { return nil }
        let tests = TestRunner(scripts: runner, seed: seed)
        let results: [TestResult]
        switch tests.discover(file: reproducer, root: job.script.root) {
        case .failure(let result): results = [result]
        case .success(let found): results = found.map { tests.run($0) }
        }
        let holds = "the invariant '\(failure.invariant)' holds after step"
        let fails = results.contains {
            $0.status == .failed
                && (BuiltinInvariant(rawValue: failure.invariant) != nil
                    || failure.invariant.hasPrefix("action '")
                    || $0.message.contains(holds))
        }
        if fails { return nil }
        let how =
            results.first.map {
                $0.status == .failed
                    ? "fails for another reason (\($0.message.prefix { $0 != "\n" }))" : "passes"
            } ?? "has no test"
        return "the scenario of the shrunk steps \(how): the invariant broke only in the explorer's run "
            + "(one that changes the screen, or reads more than the screen, does not break the same way "
            + "when checked once at the end)"
    }

    /// The failure's report: the shrunk steps, each with the frame after it, and the files written.
    static func report(
        _ example: ExploreCounterexample, job: Job, file: LuaExplorationFile, explorer: Explorer, out: String,
        artifacts: String?, command: String, runner: ScriptRunner, seed: Int
    ) -> String {
        var steps: [ExploreScript.Step] = []
        var frames: [FrameSnapshot] = []
        var recorder: TraceRecorder?
        let again = try? explorer.run(
            example.shrunk, replay: false,
            recorder: { recorder = TraceRecorder(screen: $0, stackplay: ReleaseVersions.string) },
            observe: { action, screen, hit in
                let frame = screen.snapshot()
                frames.append(frame)
                steps.append(
                    ExploreScript.Step(
                        action: action, hit: hit.map { "\($0.componentName) \($0.target)" },
                        frame: ExploreScript.frameLines(frame)))
            })
        // the shrunk steps run once more: a failure they do not give again is flaky
        let reproduced = again?.failure != nil
        let failure = again?.failure ?? example.failure
        var lines = [
            "  FAIL \(job.name) (\(file.explorations[job.index].position)): the invariant '\(failure.invariant)' broke",
            "    at step \(example.step + 1) of run \(example.run); shrunk from \(example.original.count) steps to "
                + "\(steps.count) in \(example.attempts) tries:",
        ]
        for (index, step) in steps.enumerated() {
            lines.append(
                "    \(index + 1). \(step.action.lua)" + (step.hit.map { "   -- lands on \($0)" } ?? ""))
            for frame in step.frame { lines.append("         \(frame)") }
        }
        lines.append(
            "    \(failure.invariant): "
                + failure.message.split(separator: "\n").joined(separator: "\n      "))
        let base = "\(out)/\(job.fileName)"
        let source = Check.readFile(job.script.path) ?? "-- (the exploration file could not be read)\n"
        let script = ExploreScript.text(
            exploration: job.name, file: job.script.path, source: source, command: command, run: example.run,
            originalSteps: example.original.count, steps: steps, failure: failure,
            builtin: BuiltinInvariant(rawValue: failure.invariant) != nil)
        do {
            try TraceFile.makeDirectory(out)
            let reproducer = ReportOutput(
                flag: "--out", path: base + ".lua", kind: .reproducer, inFolder: true)
            try reproducer.write(script)
            // The scenario is run before it is kept: one that passes is no reproducer.
            let passes =
                !reproduced
                ? "the shrunk steps did not fail again when run once more (the failure is flaky: "
                    + "an invariant or action that reads more than the screen)"
                : checkFails(
                    reproducer: base + ".lua", job: job, runner: runner, seed: seed, failure: failure)
            if let passes {
                unlink(base + ".lua")
                lines.append("    no reproducer written: \(passes)")
            }
            if let recorder {
                try ReportOutput(flag: "--out", path: base + ".jsonl", kind: .trace, inFolder: true)
                    .write(recorder.text)
            }
            lines.append(
                passes == nil
                    ? "    wrote \(base).lua (run it: stackplay \(base).lua) and \(base).jsonl"
                    : "    wrote \(base).jsonl (the run's trace)")
            if let artifacts {
                let folder = "\(artifacts)/\(job.fileName)"
                try TraceFile.makeDirectory(folder)
                for (index, frame) in frames.enumerated() {
                    let caption = "\(index + 1). \(steps[index].action.lua)"
                    try ReportOutput(
                        flag: "--artifacts", path: "\(folder)/step-\(index + 1).svg", kind: .svg,
                        inFolder: true
                    ).write(TraceSVG.render(frame, caption: caption))
                }
                // The filmstrip: every step's frame in a row, with its line of Lua.
                var html =
                    "<!doctype html><meta charset=\"utf-8\"><title>\(TraceSVG.escape(job.name))</title>\n"
                html += "<h1>\(TraceSVG.escape(job.name)): \(TraceSVG.escape(failure.invariant))</h1>\n"
                html += "<div style=\"display:flex;gap:12px;overflow-x:auto;font:12px sans-serif\">\n"
                for (index, step) in steps.enumerated() {
                    html +=
                        "<figure><img src=\"step-\(index + 1).svg\" width=\"240\">"
                        + "<figcaption>\(index + 1). \(TraceSVG.escape(step.action.lua))</figcaption></figure>\n"
                }
                html += "</div>\n<p>\(TraceSVG.escape(failure.message))</p>\n"
                try ReportOutput(
                    flag: "--artifacts", path: "\(folder)/filmstrip.html", kind: .filmstrip, inFolder: true
                ).write(html)
                lines.append("    wrote \(frames.count) SVG frames and filmstrip.html to \(folder)/")
            }
        } catch {
            lines.append("    stackplay: \(error.message)")
        }
        return lines.joined(separator: "\n")
    }
}
