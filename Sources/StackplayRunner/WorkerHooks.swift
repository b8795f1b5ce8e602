import Bindings
import Workers

#if canImport(Glibc)
    import Glibc
#endif

extension WorkerPool.Hooks {
    /// The runner's: a worker forgets the report's held lines (the parent's to write) and its
    /// script's CPU watchdog answers on the worker's pipe; the parent writes what it reported
    /// before each wait; a refusal to fork ends the run (exit 1).
    static var runner: WorkerPool.Hooks {
        WorkerPool.Hooks(
            workerStarts: { answers in
                Output.forget()
                ScriptWatchdog.answer(to: answers)
            },
            beforeWait: { Output.flush() },
            refused: { message in
                Output.err(message)
                exit(Output.finish(ExitCode.failure))
            })
    }
}
