import Wording

/// How golden traces are compared and recorded, the same for a script's
/// `expect(screen):to_match_trace(path)` and for `stackplay --golden DIR`.
public struct GoldenPolicy: Sendable, Equatable {
    /// `--update`: record every golden trace again instead of comparing.
    public var update: Bool
    /// `--ci`, or a non-empty `CI` variable: a missing golden trace is a failure, never a write.
    public var ci: Bool
    /// Numbers within this of each other are equal: 0 (exact) unless `--tolerance X` says.
    public var tolerance: Double

    public init(update: Bool = false, ci: Bool = false, tolerance: Double? = nil) {
        self.update = update
        self.ci = ci
        self.tolerance = tolerance ?? 0
    }
}

/// Compares a run's traces with golden traces, or records them.
public enum GoldenTrace {
    public enum Outcome: Equatable, Sendable {
        case matched
        /// The golden trace was written (it was missing, or `--update`); its path.
        case recorded(String)
        /// Why the run does not match: the first difference as `stackplay replay` reports it, a
        /// missing or extra screen, or a missing golden trace under `--ci`; ends with what to do.
        case failed(String)
    }

    /// One screen's trace `text` against the golden trace at `golden`. Throws when the golden
    /// trace cannot be reached or written (a path outside its folder, a FIFO, a full disk).
    /// `kinds` are the component kinds the traces may hold.
    public static func check(
        _ text: String, golden: ConfinedPath, policy: GoldenPolicy, kinds: ComponentKinds = .standard
    ) throws(ConfinedPath.Refusal) -> Outcome {
        if policy.update || !golden.exists {
            if !policy.update && policy.ci { return .failed(missing(golden)) }
            try golden.write(text)
            return .recorded(golden.path)
        }
        let stored = try golden.read()
        if stored.isSameBytes(text) { return .matched }
        do {
            let expected = try Trace(text: stored, file: golden.path, kinds: kinds)
            let actual = try Trace(text: text, file: "(this run)", kinds: kinds)
            guard
                let mismatch = TraceComparison.firstDifference(
                    expected: expected, actual: actual, tolerance: policy.tolerance)
            else { return .matched }
            return .failed("\(mismatch)\n" + toFix(golden))
        } catch {
            return .failed("\(error)\n" + toFix(golden))
        }
    }

    /// A test's traces, one a screen, against the golden traces `name(0)`, `name(1)`, ... under
    /// `folder`. A test with no golden trace at all is recorded (a failure under `--ci`); a screen
    /// without a golden trace, or a golden trace without a screen, is a failure. `--update`
    /// records them all and removes the golden traces of screens the test no longer makes.
    public static func check(
        _ traces: [String], name: (Int) -> String, under folder: String, policy: GoldenPolicy
    ) throws(ConfinedPath.Refusal) -> [Outcome] {
        let what = "the golden folder"
        var paths: [ConfinedPath] = []
        for index in traces.indices { paths.append(try ConfinedPath(name(index), under: folder, what: what)) }
        let beyond = try ConfinedPath(name(traces.count), under: folder, what: what)
        if policy.update || !(paths + [beyond]).contains(where: \.exists) {
            var outcomes: [Outcome] = []
            for (text, path) in zip(traces, paths) {
                outcomes.append(try check(text, golden: path, policy: policy))
            }
            var index = traces.count
            while policy.update {
                let stale = try ConfinedPath(name(index), under: folder, what: what)
                guard stale.exists else { break }
                try stale.remove()
                index += 1
            }
            return outcomes
        }
        var outcomes: [Outcome] = []
        for (index, (text, path)) in zip(traces, paths).enumerated() {
            if path.exists {
                outcomes.append(try check(text, golden: path, policy: policy))
            } else {
                outcomes.append(
                    .failed(
                        "this run made screen \(index + 1), which has no golden trace: \(path.path) is missing\n"
                            + "  To fix: if the new screen is meant, run again with --update to record it."))
            }
        }
        if beyond.exists {
            outcomes.append(
                .failed(
                    "the golden trace \(beyond.path) has a screen this run did not make (it made \(traces.count))\n"
                        + "  To fix: if the screen was removed on purpose, run again with --update."))
        }
        return outcomes
    }

    static func missing(_ golden: ConfinedPath) -> String {
        "golden trace \(golden.path) is missing; run without CI/--ci or with --update to record it"
    }

    static func toFix(_ golden: ConfinedPath) -> String {
        "  To fix: if the change is meant, run again with --update to record \(golden.path)."
    }
}
