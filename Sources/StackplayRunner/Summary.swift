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

    /// `3 passed, 1 failed` (`, 2 skipped` when any were).
    var line: String {
        "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
    }
}
