/// Which job a worker takes next. The jobs are cut into shares, each a run of jobs next to each
/// other with the same key (jobs without a key are a share each); a worker runs its share to the
/// end, then takes the first share nobody has taken whose key it served before, else the first
/// share nobody has taken, and when every share is taken, the next few jobs of the largest share
/// left: a file's tests run where it was discovered (compiled), and no worker waits while another
/// has jobs to spare.
struct JobOrder {
    private struct Share {
        var next: Int
        var end: Int
        let key: String?
        var taken = false
    }
    private var shares: [Share] = []
    /// No share before it is free.
    private var firstFree = 0
    /// The share each worker slot runs.
    private var held: [Int: Int] = [:]
    /// The shares of each key.
    private var sharesOf: [String: [Int]] = [:]
    /// Each slot's shares whose key its process served (it has the file compiled: a file another
    /// worker discovered is compiled again), last first, and how many of its keys they came from.
    private var own: [Int: [Int]] = [:]
    private var ownKeys: [Int: Int] = [:]
    /// How many jobs past the first free share a worker's own share may start.
    private static let reach = 1024
    /// How many jobs a worker takes from the largest share left once every share is taken.
    private static let spared = 8

    /// How many jobs there are.
    private(set) var count = 0
    private let key: ((Int) -> String)?

    init(count: Int, key: ((Int) -> String)?) {
        self.key = key
        extend(to: count, served: [])
    }

    /// Adds the jobs up to `count` (a batch that grows as it runs: a file's tests once its
    /// discovery answers). A new share whose key a worker slot served (`served`, by slot) is that
    /// slot's own, as the shares of its keys it took are.
    mutating func extend(to count: Int, served: [Set<String>], taken: Bool = false) {
        var start = self.count
        if taken {
            // jobs a worker runs of itself: one share, already run to its end
            if start < count { shares.append(Share(next: count, end: count, key: nil, taken: true)) }
            self.count = max(self.count, count)
            return
        }
        while start < count {
            let name = key?(start)
            var end = start + 1
            if let name, let key { while end < count, key(end) == name { end += 1 } }
            if let name {
                sharesOf[name, default: []].append(shares.count)
                // the newest share is the last one a slot's own list (largest first) reaches
                for slot in served.indices where served[slot].contains(name) && ownKeys[slot] != nil {
                    own[slot, default: []].insert(shares.count, at: 0)
                }
            }
            shares.append(Share(next: start, end: end, key: name))
            start = end
        }
        self.count = max(self.count, count)
    }

    /// The first free share of a key `served` holds, if any.
    private mutating func ownShare(for slot: Int, served: Set<String>) -> Int? {
        guard !sharesOf.isEmpty else { return nil }
        if served.count != ownKeys[slot] {
            // keys served before this batch, or a new process (none): looked up once
            own[slot] = served.flatMap { sharesOf[$0] ?? [] }.sorted(by: >)
            ownKeys[slot] = served.count
        }
        while let last = own[slot]?.last, shares[last].taken { own[slot]?.removeLast() }
        // not too far ahead of the first free share: the results that finish before those of the
        // jobs in front of them wait in the run for their turn to be reported
        guard let last = own[slot]?.last, firstFree < shares.count,
            shares[last].next - shares[firstFree].next <= Self.reach
        else { return nil }
        return last
    }

    /// The job the worker in `slot` runs next (nil when every job is handed out); `served`, the
    /// keys its process served, gets the key of a share it takes.
    mutating func next(for slot: Int, served: inout Set<String>) -> Int? {
        if let share = held[slot], shares[share].next < shares[share].end { return take(share) }
        while firstFree < shares.count, shares[firstFree].taken { firstFree += 1 }
        var pick = ownShare(for: slot, served: served) ?? (firstFree < shares.count ? firstFree : nil)
        if pick == nil {
            // every share is taken: the next jobs of the largest share left, which goes on after them
            guard
                let largest = shares.indices.max(by: {
                    shares[$0].end - shares[$0].next < shares[$1].end - shares[$1].next
                }), shares[largest].next < shares[largest].end
            else { return nil }
            let from = shares[largest].next
            let end = min(shares[largest].end, from + Self.spared)
            shares[largest].next = end
            shares.append(Share(next: from, end: end, key: shares[largest].key))
            pick = shares.count - 1
        }
        guard let pick else { return nil }
        shares[pick].taken = true
        held[slot] = pick
        if let key = shares[pick].key, served.insert(key).inserted {
            // its other shares, if any, are this worker's own from now on
            let others = (sharesOf[key] ?? []).filter { !shares[$0].taken }
            if !others.isEmpty { own[slot] = ((own[slot] ?? []) + others).sorted(by: >) }
            ownKeys[slot] = served.count
        }
        return take(pick)
    }

    private mutating func take(_ share: Int) -> Int {
        shares[share].next += 1
        return shares[share].next - 1
    }
}
