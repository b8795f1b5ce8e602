import StackModel
import Traces

/// `stackplay merge MUTATION.json ...`: the `mutate --json` reports of shards (`mutate --shard K/N`)
/// as one mutation report, the same as the unsharded run's: its mutants in the catalogue's order,
/// the same statuses, counts and score. Reports of different runs (other paths or flags, another
/// stackplay), a mutant in two reports, or a shard missing from a set are errors naming the files.
enum MutationMerge {
    /// Whether the report at `path` is a mutation report (Stryker's schema), not a run's.
    static func isMutationReport(_ path: String) -> Bool {
        guard let text = try? TraceFile.read(path) else { return false }
        return ReportOutput.Kind.mutationJSON.recognizes(String(text.prefix(64)))
    }

    static func run(_ options: Options) -> Int32 {
        var plain = options
        plain.jsonFile = nil
        plain.artifactsDirectory = nil
        plain.htmlFile = nil
        var outputs: [ReportOutput] = []
        if let path = options.jsonFile {
            outputs.append(ReportOutput(flag: "--json", path: path, kind: .mutationJSON))
        }
        if let path = options.htmlFile {
            outputs.append(ReportOutput(flag: "--html", path: path, kind: .page))
        }
        if let folder = options.artifactsDirectory {
            outputs.append(ReportOutput(flag: "--artifacts", path: folder + "/mutation.html", kind: .page))
        }
        if let refusal = ReportOutput.check(plain, inputs: options.paths, as: "a report merge reads")
            ?? ReportOutput.check(outputs)
        {
            Output.usageError(refusal)
            return ExitCode.usage
        }
        let merged: MutationReport
        do { merged = try merge(options.paths) } catch {
            Output.err("stackplay: \(error.description)")
            return ExitCode.failure
        }
        Output.out(options.format == .json ? merged.stryker.text : merged.human)
        return merged.written(options) ? ExitCode.success : ExitCode.failure
    }

    /// The reports at `paths`, merged.
    static func merge(_ paths: [String]) throws(MutationReport.Unreadable) -> MutationReport {
        var reports: [MutationReport] = []
        for (number, path) in paths.enumerated() {
            if let first = paths.prefix(number).firstIndex(where: { $0.isSameBytes(path) }) {
                throw MutationReport.Unreadable(
                    description: "\(path) is given twice (as report \(first + 1) and \(number + 1)): "
                        + "its mutants would count twice")
            }
            let text: String
            do { text = try TraceFile.read(path) } catch {
                throw MutationReport.Unreadable(description: error.message)
            }
            reports.append(try MutationReport.read(text, path: path))
        }
        var merged = reports[0]
        merged.shard = nil
        merged.reused = 0
        merged.reusedFrom = nil
        var seen: [String: Int] = [:]
        for (number, report) in reports.enumerated() {
            if number > 0 {
                guard report.models == merged.models else {
                    throw MutationReport.Unreadable(
                        description: "\(paths[number]) was written on other models than \(paths[0]) "
                            + "(\(report.models), not \(merged.models)): their verdicts do not add up")
                }
                guard report.arguments == merged.arguments else {
                    throw MutationReport.Unreadable(
                        description: "\(paths[number]) ran '\(report.arguments.joined(separator: " "))', "
                            + "\(paths[0]) ran '\(merged.arguments.joined(separator: " "))': reports of "
                            + "two different runs")
                }
                merged.outcomes += report.outcomes
                merged.seconds = max(merged.seconds, report.seconds)
                merged.plainSeconds = max(merged.plainSeconds, report.plainSeconds)
                merged.sources.merge(report.sources) { first, _ in first }
            }
            merged.reused += report.reused
            for outcome in report.outcomes {
                if let first = seen[outcome.mutant.id] {
                    throw MutationReport.Unreadable(
                        description:
                            "mutant \(outcome.mutant.id) is in both \(paths[first]) and \(paths[number]): "
                            + "each mutant belongs to one shard's report")
                }
                seen[outcome.mutant.id] = number
            }
        }
        // A set of shards (K/N) must be whole, or the score would be another run's.
        let shards = reports.compactMap(\.shard)
        if let count = shards.first?.count, shards.count == reports.count {
            let missing = (1...count).filter { index in !shards.contains { $0.index == index } }
            if !missing.isEmpty || shards.contains(where: { $0.count != count }) {
                throw MutationReport.Unreadable(
                    description: "the reports are shards of \(count), but shard "
                        + missing.map { "\($0)/\(count)" }.joined(separator: ", ") + " is missing: "
                        + "the merged score would not be the whole run's")
            }
        }
        let order = Dictionary(uniqueKeysWithValues: Mutant.catalogue.enumerated().map { ($1.id, $0) })
        merged.outcomes.sort { order[$0.mutant.id]! < order[$1.mutant.id]! }
        return merged
    }
}
