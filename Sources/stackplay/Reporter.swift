import Bindings

#if canImport(Glibc)
import Glibc
#endif

/// What the user sees: failures on stderr as `stackplay: path:line: message` with the Lua
/// traceback, and `N passed, N failed` on stdout at the end.
struct Reporter {
    private(set) var passed = 0
    private(set) var failed = 0

    mutating func record(_ result: ScriptResult) {
        guard let failure = result.failure else {
            passed += 1
            return
        }
        failed += 1
        fflush(nil)  // the script's own output first, then its error
        Self.printError("stackplay: \(failure.message)")
        if !failure.traceback.isEmpty { Self.printError(failure.traceback) }
    }

    func summarize() {
        print("\(passed) passed, \(failed) failed")
    }

    static func usageError(_ message: String) {
        printError("stackplay: \(message)\nSee 'stackplay --help'.")
    }

    static func printError(_ text: String) {
        fflush(nil)
        var line = text + "\n"
        line.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }
}
