import Bindings
import SystemCalls
import Workers

#if canImport(Glibc)
    import Glibc
#endif

/// A run of one file that only runs code (a whole script: no `test`, no `explore`): the runner
/// loads it in its own process, without forking a worker, and its result is the run's. A worker
/// process costs more than such a script (issue 21's start-up row: about 0.5 ms of a 2.5 ms
/// start). What a worker is for still holds: a script stuck in C or Swift code past its CPU budget,
/// or a crash, makes the process start over with ``environmentKey`` set, and that run loads the
/// file in a worker, which reports it as ever (restart.c). The time limit cannot be reached
/// first: only a limit longer than the CPU budget and its grace loads a file here.
enum LoneFile {
    /// Set (to anything): every file loads in a worker. The restart sets it.
    static let environmentKey = "STACKPLAY_LOAD_IN_WORKER"

    /// The names a file calls to declare tests or explorations, or to reach the globals, other
    /// files or code that might: a file that names none of them is a whole script.
    static let declaring: Set<String> = [
        "test", "skip", "only", "explore", "require", "load", "loadfile", "dofile", "loadstring", "_G",
        "_ENV",
    ]

    /// The largest file read to find out (a whole script is rarely long; a longer file loads in a worker).
    static let largest = 64 * 1024

    /// A file this process loads itself: what its scan found.
    struct WholeScript {
        /// No token at all (EmptyScript: the run fails it), read from the scan.
        var isEmpty: Bool
    }

    /// Whether `scripts` are one whole script that this process may load itself under `options`.
    static func loadsHere(_ scripts: [Script], options: Options) -> Bool {
        wholeScript(scripts, options: options) != nil
    }

    /// The one whole script among `scripts` that this process may load itself under `options`, if so.
    static func wholeScript(_ scripts: [Script], options: Options) -> WholeScript? {
        // Nothing said yet (a restart would say it twice: a mutant's note, a random seed).
        guard scripts.count == 1, options.repeats == 1, !options.randomSeed, !Output.wrote,
            !EnvironmentSwitch.isOn(environmentKey)
        else { return nil }
        let cpu = options.budget.cpuSeconds
        // the budget and its half second of grace end a stuck script before the time limit could
        guard cpu > 0, options.timeout >= cpu + 1 else { return nil }
        guard let source = Check.readFile(scripts[0].path), source.utf8.count <= largest else { return nil }
        let tokens = LuaScan.tokenize(source)
        return tokens.contains { declaring.contains($0.text) } ? nil : WholeScript(isEmpty: tokens.isEmpty)
    }

    /// Loads the file in this process: what discovery would have found, with the whole script's
    /// result. A stuck script or a crash restarts the run meanwhile (``environmentKey``).
    static func load(_ script: Script, runner: TestRunner) -> TestRunner.Discovered {
        ScriptWatchdog.restart(
            arguments: CommandLine.arguments,
            environment: ProcessEnvironment.entries + [environmentKey + "=1"])
        // SIGINT or SIGTERM stops the script at once, as killing its worker would
        Syscall.installSignalHandler([SIGINT, SIGTERM]) { signal in
            WorkerPool.interruption = signal
            Syscall.signalled = signal
            ScriptWatchdog.interrupt()
        }
        defer {
            ScriptWatchdog.endRestart()
            WorkerPool.installSignalHandlers()
        }
        // its state stays open until the process ends (``ScriptTests/discover(file:root:each:loadedOnce:)``)
        return runner.discoverRunning(file: script.path, root: script.root, each: nil, loadedOnce: true)
    }
}
