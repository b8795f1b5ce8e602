import StackModel

#if canImport(Glibc)
    import Glibc
#endif

/// `STACKPLAY_MUTANT` seen by a command: `stackplay mutate` sets it for the runs it starts, so in
/// any other process it means the models are not the seeds'. A run says so on stderr (a mutant
/// run's stderr goes nowhere); a value that names no mutant is a usage error, never a silent
/// unmutated run; and `mutate` itself refuses it, since its baseline and `--suggest` need the
/// seeds' models.
enum MutantEnvironment {
    /// False (the error said) when the command must not go on.
    static func check(for action: Options.Action) -> Bool {
        guard let raw = getenv(Mutant.environmentVariable), raw.pointee != 0 else { return true }
        let value = String(cString: raw)
        let variable = Mutant.environmentVariable
        if action == .mutate {
            Output.usageError(
                "\(variable) is set ('\(value)'): stackplay mutate runs the suite on the seeds' models and sets "
                    + "\(variable) for each mutant's run itself; unset it")
            return false
        }
        guard let mutant = Mutant.active else {
            Output.usageError(
                "\(variable) names no mutant: '\(value)' (stackplay mutate sets it for its own runs; unset it "
                    + "for a plain run, or see docs/mutate.md for the ids)")
            return false
        }
        Output.err(
            "stackplay: note: the models run mutant \(mutant.id) (\(mutant.spec): \(mutant.summary)), "
                + "since \(variable) is set")
        return true
    }
}
