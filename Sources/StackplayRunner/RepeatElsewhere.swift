import TestResults
import Wording

/// `--repeat N`'s second look: each test's runs in its worker share one process, so what differs
/// only between processes (a hash seed, an address, the clock at start) cannot differ between
/// them. The run's tests therefore run once more in another process of this executable, with the
/// same selection and seed and no output of its own, and a test whose result differs there from
/// here is flaky too (docs/sandbox.md, "Trust boundaries").
enum RepeatElsewhere {
    /// The flags the other process does not take: outputs, and what this one says for it.
    static let dropped: Set<String> = [
        "--junit", "--json", "--tap", "--trace", "--golden", "--update", "--artifacts", "--repeat", "--list",
        "--verbose", "--seed", "--config",
    ]

    /// Bazel's variables that would make the other process write Bazel's files.
    static let bazelOutputs = [
        "XML_OUTPUT_FILE", "TEST_SHARD_STATUS_FILE", "TEST_PREMATURE_EXIT_FILE",
        "TEST_UNDECLARED_OUTPUTS_DIR",
    ]

    /// `results` with each test that the other process ran differently failed as flaky; nil when
    /// a signal interrupted the other process (the run ends as interrupted).
    static func compare(_ results: [TestResult], options: Options, seed: Int) -> [TestResult]? {
        var arguments = MutateCommand.runArguments(options.arguments, dropping: dropped)
        arguments += ["--json", "--seed", String(seed), "--junit", "/dev/null"]
        if let config = options.configFile { arguments += ["--config", config] }
        var environment: [String: String?] = [:]
        for name in bazelOutputs { environment[name] = .some(nil) }
        var other: [TestResult]?
        guard
            ChildRuns.run(
                [ChildRuns.Job(arguments: arguments, environment: environment)], jobs: 1,
                done: { _, ended in
                    if case .success(let results) = MutateCommand.parse(ended) { other = results }
                })
        else { return nil }
        guard let other else {
            Output.err(
                "stackplay: --repeat: the run in another process gave no report; only this process's runs were compared"
            )
            return results
        }
        var there: [ByteKey: TestResult] = [:]
        for result in other { there[key(result.test)] = result }
        return results.map { result in
            guard result.status != .skipped, !result.message.contains(": flaky: "),
                let elsewhere = there[key(result.test)],
                let difference = TestRunner.difference(result, elsewhere)
            else { return result }
            var flaky = result
            flaky.status = .failed
            flaky.message =
                "\(result.test.position): flaky: a run in another process differs from this one: \(difference)\n"
                + "  To fix: find what the test reads that is not the same in every process."
            return flaky
        }
    }

    private static func key(_ test: TestCase) -> ByteKey { ByteKey(test.file + "\u{0}" + test.fullName) }
}
