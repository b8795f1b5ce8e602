/// "Did you mean" for every message that names something unknown: Lua options, config keys,
/// trace event types.

/// The known name closest to `name` by edit distance, if it is close enough to be a typo.
public func nearestName(to name: String, in known: [String]) -> String? {
    let scored = known.map { ($0, editDistance(name.lowercased(), $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    return best.1 <= max(2, name.count / 3) ? best.0 : nil
}

/// Levenshtein distance between two strings, by characters.
public func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(
                previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
