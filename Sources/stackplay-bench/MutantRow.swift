import Foundation
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

/// Issue 25's speed target: `stackplay mutate scripts --jobs 2` against the whole catalogue costs
/// at most 2 × (number of mutants × one plain `stackplay scripts --jobs 2`), and at most 10 s wall.
func measureMutateSpeed(binary: String) {
    guard FileManager.default.fileExists(atPath: "scripts") else {
        print("mutate: no scripts/ here (run `make bench` from the package)")
        return
    }
    let plain = fastest(3) { spawnMeasured(binary, ["scripts", "--jobs", "2"]).seconds }
    let mutate = spawnMeasured(binary, ["mutate", "scripts", "--jobs", "2"])
    let mutants = Double(Mutant.catalogue.count)
    let ratio = mutate.seconds / (mutants * plain)
    print(
        "mutate scripts/ (\(Int(mutants)) mutants, --jobs 2): \(String(format: "%.2f", mutate.seconds)) s wall, "
            + "\(String(format: "%.2f", ratio))× (mutants × one plain run of \(String(format: "%.3f", plain)) s); "
            + "target <= 2× and <= 10 s" + (mutate.status == 0 ? "" : " (exit \(mutate.status))"))
}
