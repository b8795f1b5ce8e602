import TestResults

/// The counts every reporter ends with.
struct Summary {
    var passed = 0
    var failed = 0
    var skipped = 0

    init(_ results: [TestResult]) {
        for result in results { add(result.status) }
    }

    mutating func add(_ status: TestResult.Status) {
        switch status {
        case .passed: passed += 1
        case .failed: failed += 1
        case .skipped: skipped += 1
        }
    }

    /// `--repeat N`: how many times each test ran.
    var repeats = 1

    /// `3 passed, 1 failed` (`, 2 skipped` when any were); under `--repeat 200`, `(each test ran
    /// 200 times, identically)`.
    var line: String {
        let counts = "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
        guard repeats > 1 else { return counts }
        return counts
            + (failed == 0
                ? " (each test ran \(repeats) times, identically)"
                : " (each test ran \(repeats) times; one whose runs differed failed as flaky)")
    }
}
