/// "Did you mean" for every message that names something unknown: Lua options, config keys,
/// trace event types.

/// The known name closest to `name` by edit distance, if it is close enough to be a typo: one
/// edit for short names, a third of the name for longer ones ("calender" finds "calendar", "zz"
/// does not find "c0"), or the same letters in another order ("rlt" finds "ltr").
public func nearestName(to name: String, in known: [String]) -> String? {
    // A typo is short: a hostile megabyte-long name gets no suggestion, and a known name whose
    // length differs by more than the distance accepted below cannot be the nearest, so the
    // quadratic edit distance is never run on long strings.
    let count = name.count
    guard count <= maximumSuggestedLength else { return nil }
    let slack = max(2, count / 3)
    let candidates = known.filter { abs($0.count - count) <= slack }
    let lowered = name.lowercased()
    let scored = candidates.map { ($0, editDistance(lowered, $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    if best.1 <= max(1, name.count / 3) { return best.0 }
    if best.1 <= 2, lowered.sorted() == best.0.lowercased().sorted() { return best.0 }
    return nil
}

/// The longest name ``nearestName(to:in:)`` looks for a suggestion for.
public let maximumSuggestedLength = 200

/// Edit distance between two strings, by characters: insertions, deletions, substitutions and
/// swaps of two neighbours each count one (optimal string alignment), since a swap is the
/// commonest typo ("stpes").
public func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in 1...a.count {
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
            }
        }
    }
    return d[a.count][b.count]
}
