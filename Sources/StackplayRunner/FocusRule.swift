import Bindings
import TestResults

/// `--forbid-only` and CI: a test left as `only(...)` fails, so that a focused file cannot pass
/// with its other tests skipped.
enum FocusRule {
    static func apply(to results: [TestResult], ci: Bool) -> [TestResult] {
        results.map { result in
            guard result.test.focused else { return result }
            var failed = result
            failed.status = .failed
            failed.position = result.test.position
            failed.message =
                "\(result.test.position): only(...) is not allowed "
                + (ci ? "in CI (the CI variable is set, or --ci)" : "with --forbid-only")
                + ": the file's other tests were skipped\n  To fix: change only(...) back to test(...)."
            return failed
        }
    }
}
