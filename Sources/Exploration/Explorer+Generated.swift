/// The runs an exploration generates, without checking anything: what `stackplay mutate --suggest`
/// replays on the real model and on a mutant to find where they part.
extension Explorer {
    /// The steps of run `run` (of ``budget``'s seed and steps), as the real model took them.
    public func generatedRun(_ run: Int) throws -> [ExploreAction] {
        let random = RandomBox(ExploreRandom(seed: budget.seed, name: name, run: run))
        return try execute(.generate(random, budget.steps), replay: false).performed
    }
}
