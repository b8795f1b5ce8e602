import Bindings
import TestResults

/// The report on stdout in the chosen format.
enum Reporters {
    static func report(_ results: [TestResult], format: Options.Format, seed: Int?) {
        switch format {
        case .human: HumanReporter(colours: Output.colours, seed: seed).report(results)
        case .tap: TapReporter().report(results)
        case .json: JSONReporter(seed: seed).report(results)
        }
    }
}
