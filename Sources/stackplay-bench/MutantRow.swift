import StackModel

/// Issue 25: the mutant switch costs nothing measurable when off. A touch move and frame snapshot
/// of the 4-card open stack asks 5 mutated points (`N10.leading-clamp` in the move, `N5.z-reversed`
/// for each card); this measures 5 checks alone, against the event with the switch off (the rate
/// printed above, with every check in it). The checks cannot be compiled out for a "no check" build
/// in the same binary, so their own cost is measured apart: an upper bound, each round a call that
/// cannot be inlined (so the compiler cannot hoist the checks out of the loop).
func measureMutantSwitch(eventRate: Double) {
    var hits = 0
    let checksRate = measure("  mutant switch off: 5 checks (what one touch move + snapshot asks)") { round in
        for step in 0..<1000 where fiveChecks() { hits += step + round }
        return 1000
    }
    if hits != 0 { print(hits) }
    let share = eventRate / checksRate * 100
    print(
        "  mutant switch off: touch move + snapshot \(Int(eventRate)) events/s; its checks are at most "
            + "\(String(format: "%.2f", share))% of an event (noise: a few %)")
}

/// The checks one touch move + snapshot of the 4-card open stack asks.
@inline(never)
func fiveChecks() -> Bool {
    Mutant.n10LeadingUnclamped.isActive || Mutant.n5ZReversed.isActive || Mutant.n5ZReversed.isActive
        || Mutant.n5ZReversed.isActive || Mutant.n5ZReversed.isActive
}
