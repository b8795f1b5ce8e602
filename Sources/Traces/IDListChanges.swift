/// How a list of ids changed, aligned by content as difflib and Jest align lines (a longest common
/// subsequence): `+ x at 2` for an id only `actual` has (its 1-based place there), `- d at 4` for
/// one only `expected` has (its place there), in list order; one inserted id is one `+`, not a
/// change at every place after it. Ids compare by their bytes. Empty when the lists are equal, or
/// too long to align (over ``idListAlignLimit`` pairs: a hostile trace's list).
func idListChanges(_ expected: [String], _ actual: [String]) -> [String] {
    let n = expected.count
    let m = actual.count
    guard n * m <= idListAlignLimit else { return [] }
    let same = { (i: Int, j: Int) in expected[i].utf8.elementsEqual(actual[j].utf8) }
    // lengths[i][j]: the longest common subsequence of expected[i...] and actual[j...].
    var lengths = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
    for i in stride(from: n - 1, through: 0, by: -1) {
        for j in stride(from: m - 1, through: 0, by: -1) {
            lengths[i][j] =
                same(i, j) ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
        }
    }
    var changes: [String] = []
    var i = 0
    var j = 0
    while i < n || j < m {
        if i < n, j < m, same(i, j) {
            i += 1
            j += 1
        } else if j < m, i == n || lengths[i][j + 1] >= lengths[i + 1][j] {
            changes.append("+ \(actual[j]) at \(j + 1)")
            j += 1
        } else {
            changes.append("- \(expected[i]) at \(i + 1)")
            i += 1
        }
    }
    return changes
}

/// The most pairs of ids ``idListChanges(_:_:)`` aligns: lists of a thousand cards each.
let idListAlignLimit = 1_000_000
