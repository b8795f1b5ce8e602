import Workers

/// `stackplay --watch [FILE|DIR ...]`: runs the scripts, then waits (on inotify: no CPU while
/// nothing changes) and, each time files are saved, runs again only the scripts saved and those
/// that `require` a saved helper (``AffectedScripts``), a new script under a watched folder
/// included. Each round says what changed, what it re-runs, and ends with its own `N passed, N
/// failed`. Ctrl-C (SIGINT) or SIGTERM ends it, between rounds or in one (the round reports
/// what finished), with 130 or 143.
struct WatchCommand {
    let options: Options
    let config: Config
    let timings: ShardTimings?

    /// How long a save must be quiet before its round starts: an editor's write, rename and
    /// touch are one round.
    static let quiet = 0.05

    func run(_ scripts: [Script]) -> Int32 {
        WorkerPool.installSignalHandlers()
        let code = LastRun.run(options, config: config.source?.path, scripts: scripts, makeRun)
        if WorkerPool.interruption != 0 { return code }
        let watcher: FileWatcher
        do { watcher = try FileWatcher(watched(scripts)) } catch {
            Output.err("stackplay: --watch: \(error.message)")
            return ExitCode.failure
        }
        say("watching \(options.paths.joined(separator: ", ")) for changes (Ctrl-C to stop)")
        var round = 0
        var options = self.options
        options.picks = nil  // `--last-failed` picks the first round's tests only
        while let changed = watcher.wait(quiet: Self.quiet, interrupted: { WorkerPool.interruption != 0 }) {
            let saved = changed.filter { $0.hasSuffix(".lua") }
            guard !saved.isEmpty else { continue }
            round += 1
            // Scripts made since are found; those removed are gone.
            let current = (try? Discovery.scripts(in: options.paths, root: options.root)) ?? scripts
            let map = AffectedScripts(current.map { AffectedScripts.Script(path: $0.path, root: $0.root) })
            let affected = map.affected(by: saved)
            let helpers = Set(map.helpers(in: saved))
            let described = saved.map { helpers.contains($0) ? "\($0) (required by others)" : $0 }
            guard !affected.isEmpty else {
                say("round \(round): \(described.joined(separator: ", ")) changed; no script to run")
                continue
            }
            say(
                "round \(round): \(described.joined(separator: ", ")) changed; running "
                    + affected.map(\.path).joined(separator: ", "))
            let results = ResultList()
            var run = TestRun(options: options, screen: config.screen, timings: timings)
            run.observe = { results.items.append($0) }
            let code = run.run(affected.map { Script(path: $0.path, root: $0.root) })
            if WorkerPool.interruption != 0 { return code }
            let failed = results.items.filter { $0.status == .failed }.count
            let passed = results.items.filter { $0.status == .passed }.count
            say("round \(round): \(passed) passed, \(failed) failed; watching for changes")
        }
        let signal = WorkerPool.interruption
        say("stopped watching (\(signal == 15 ? "SIGTERM" : "SIGINT"))")
        return signal == 0 ? ExitCode.success : 128 + signal
    }

    private func makeRun(_ options: Options) -> TestRun {
        TestRun(options: options, screen: config.screen, timings: timings)
    }

    /// The paths given, and the folders the scripts' `require` looks in (their helpers).
    private func watched(_ scripts: [Script]) -> [String] {
        var out = options.paths
        var seen = Set(out.map(AffectedScripts.canonical))
        for root in scripts.map(\.root) + (options.root.map { [$0] } ?? [])
        where Discovery.kind(of: root) == .folder && seen.insert(AffectedScripts.canonical(root)).inserted {
            out.append(root)
        }
        return out
    }

    /// A round's line: on stdout beside the human report, on stderr when stdout is TAP or JSON.
    private func say(_ text: String) {
        let line = "stackplay --watch: \(text)"
        if (options.format ?? .human) == .human { Output.out(line) } else { Output.err(line) }
    }
}
