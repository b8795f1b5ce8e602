import Bindings
import Traces

/// `--json`: one JSON document on stdout with every test and the counts.
struct JSONReporter {
    /// The run's seed; nil when the run was interrupted before it mattered.
    var seed: Int? = nil

    func report(_ results: [TestResult]) {
        let tests = results.map { result in
            "{\"file\":\(jsonString(result.test.file)),\"name\":\(jsonString(result.test.name)),"
                + "\"position\":\(jsonString(result.test.position)),\"status\":\"\(result.status.rawValue)\","
                + "\"seconds\":\(result.seconds),\"message\":\(jsonString(result.message)),"
                + "\"failure_position\":\(jsonString(result.position)),\"dump\":\(jsonString(result.dump)),"
                + "\"traceback\":\(jsonString(result.traceback)),\"output\":\(jsonString(result.output)),"
                + "\"seed\":\(result.seed)}"
        }
        let summary = Summary(results)
        Output.out(
            "{\"tests\":[\(tests.joined(separator: ","))],\"passed\":\(summary.passed),"
                + "\"failed\":\(summary.failed),\"skipped\":\(summary.skipped)"
                + (seed.map { ",\"seed\":\($0)" } ?? "") + "}")
    }
}

/// A JSON string literal, escaped per RFC 8259 (the traces' writer does it).
func jsonString(_ text: String) -> String { JSONValue.string(text).text }
