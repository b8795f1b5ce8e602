import StackModel

/// The mutants no scenario can tell from the seeds' models (docs/mutate.md, "Equivalent
/// mutants"): `stackplay mutate` does not run them but reports them `Ignored` with the reason,
/// as Stryker and PIT report the mutants they leave out, so that they count in no score;
/// `--include-equivalent` runs them like any other.
enum Equivalents {
    /// Why each is equivalent, by mutant id.
    static let reasons: [String: String] = [
        "S3.floor+": scaleFloor,
        "S3.floor-": scaleFloor,
        "S3.floor-clamp": scaleFloor,
        "W8.shadow-room+": shadowRoom,
        "W8.shadow-room-": shadowRoom,
    ]

    private static let scaleFloor =
        "equivalent: the scale is max(1 - min(travel, 4) × 0.05, 0.6) and never goes under 0.8, "
        + "so no floor of 0.5 to 0.7 (or none) changes a card"

    private static let shadowRoom =
        "equivalent: a card is drawn invisible only when its whole frame is outside the mask, and no "
        + "card gets 20 pt above the stack or beside it; the mask changes no hit test"

    /// Why `mutant` is left out, or nil when it is run.
    static func reason(_ mutant: Mutant) -> String? { reasons[mutant.id] }
}
