import Traces

/// `stackplay mutate --incremental FILE` (docs/mutate.md, "Incremental runs"): a previous report's
/// verdicts reused where nothing they rest on changed, as Stryker's `--incremental` does. Nothing
/// is reused unless the previous report was given on the same models (stackplay's version and
/// catalogue, its `stackplay.models`) for the same runs (paths and selection flags). Then a
/// mutant killed (or timed out) by a test keeps its verdict while that test still exists and its
/// script's bytes are those the previous run read (`testFiles[script].source`); a survivor, or a
/// mutant no test reached, keeps it only while no script changed and the tests are the same ones
/// (any new or changed test might kill it). A runtime error is always run again; the ignored
/// equivalents are not run either way.
enum Incremental {
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// The report at `path`: nil when there is none yet (a first run: every mutant runs).
    static func previous(_ path: String) -> Result<MutationReport?, Problem> {
        guard TraceFile.exists(path) else { return .success(nil) }
        let text: String
        do { text = try TraceFile.read(path) } catch {
            return .failure(Problem(description: "--incremental: \(error.message)"))
        }
        do { return .success(try MutationReport.read(text, path: path)) } catch {
            return .failure(Problem(description: "--incremental: \(error.description)"))
        }
    }

    /// The previous outcomes `current` (its tests and scripts, before any mutant ran) may keep, by
    /// mutant id, each marked reused.
    static func reusable(from previous: MutationReport, for current: MutationReport) -> [String:
        MutantOutcome]
    {
        guard previous.models == current.models, previous.arguments == current.arguments else { return [:] }
        var changed: Set<String> = []
        for file in Set(previous.sources.keys).union(current.sources.keys)
        where !(previous.sources[file] ?? "").isSameBytes(current.sources[file] ?? "\u{0}") {
            changed.insert(file)
        }
        let sameTests = Set(previous.tests.map(\.id)) == Set(current.tests.map(\.id))
        let tests = Set(current.tests.map(\.id))
        var kept: [String: MutantOutcome] = [:]
        for outcome in previous.outcomes {
            var reuse = false
            switch outcome.status {
            case .killed, .timeout:
                if let killer = outcome.killer {
                    reuse =
                        !killer.file.isEmpty && !changed.contains(killer.file) && tests.contains(killer.test)
                }
            case .survived, .noCoverage: reuse = changed.isEmpty && sameTests
            case .runtimeError, .ignored: reuse = false
            }
            if reuse {
                var copy = outcome
                copy.reused = true
                kept[outcome.mutant.id] = copy
            }
        }
        return kept
    }
}
