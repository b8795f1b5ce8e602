import StackModel
import TestResults
import Wording

/// `mutate --suggest`'s last step: a test the search wrote runs on the real model under the
/// suite's own flags (a `--matrix` or `--mirror` given on the command line, `--audit`, the seed,
/// the budgets), in another process; one that fails there is no suggestion (the search compares
/// the model and the mutant in the plain variant, and a test that fails on the model under the
/// suite's flags would only add a failure to it).
enum SuggestCheck {
    /// Why the test at `path` fails on the real model with `flags`, or nil when it passes.
    static func failure(of path: String, flags: [String]) -> String? {
        var answer: String?
        let job = ChildRuns.Job(
            arguments: flags + ["--json", path], environment: [Mutant.environmentVariable: nil])
        _ = ChildRuns.run([job], jobs: 1) { _, ended in
            switch MutateCommand.parse(ended) {
            case .success(let results):
                if let failed = results.first(where: { $0.status == .failed }) {
                    answer =
                        "\(terminalSafe(failed.test.fullName)): \(MutateCommand.firstLine(failed.message))"
                }
            case .failure(let problem): answer = problem.message
            }
        }
        return answer
    }
}
