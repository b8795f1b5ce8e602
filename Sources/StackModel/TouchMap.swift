/// A few values keyed by touch id, in the order they were added: with one or two fingers down, a
/// linear look-up is cheaper than hashing, and a touch move does several of them. Past
/// ``indexedFrom`` fingers a dictionary finds each entry, and a finger that comes up leaves a hole
/// that a later compaction closes, so that a trace holding 100,000 fingers down costs each event
/// the same as one finger does (`replay` was quadratic in the fingers held down).
public struct TouchMap<Value>: Sequence {
    /// The entries, in the order they were added; nil values are holes (only while indexed).
    private var entries: [(key: Int, value: Value?)] = []
    /// Where each key's entry is, once there are more than ``indexedFrom`` entries.
    private var index: [Int: Int]?
    /// How many entries hold a value.
    public private(set) var count = 0

    /// The count past which look-ups go through a dictionary.
    static var indexedFrom: Int { 8 }

    public init() {}

    private func position(of key: Int) -> Int? {
        if let index { return index[key] }
        return entries.firstIndex { $0.key == key }
    }

    public subscript(key: Int) -> Value? {
        get { position(of: key).flatMap { entries[$0].value } }
        set {
            if let at = position(of: key) {
                if let newValue { entries[at].value = newValue } else { remove(at: at) }
            } else if let newValue {
                entries.append((key, newValue))
                index?[key] = entries.count - 1
                count += 1
                if index == nil, count > Self.indexedFrom { reindex() }
            }
        }
    }

    @discardableResult
    public mutating func removeValue(forKey key: Int) -> Value? {
        guard let at = position(of: key) else { return nil }
        let value = entries[at].value
        remove(at: at)
        return value
    }

    private mutating func remove(at position: Int) {
        count -= 1
        guard index != nil else {
            entries.remove(at: position)
            return
        }
        index?[entries[position].key] = nil
        entries[position].value = nil
        // The holes are closed once they outnumber the entries: each removal costs O(1) amortized.
        if entries.count - count > Swift.max(count, Self.indexedFrom) { reindex() }
    }

    /// The entries without holes, and the dictionary when there are enough of them to need one.
    private mutating func reindex() {
        entries.removeAll { $0.value == nil }
        guard count > Self.indexedFrom else {
            index = nil
            return
        }
        var positions = [Int: Int](minimumCapacity: entries.count)
        for (at, entry) in entries.enumerated() { positions[entry.key] = at }
        index = positions
    }

    public var values: [Value] { entries.compactMap(\.value) }
    public var isEmpty: Bool { count == 0 }

    public func filter(_ isIncluded: ((key: Int, value: Value)) throws -> Bool) rethrows -> TouchMap {
        var result = TouchMap()
        for entry in self where try isIncluded(entry) { result[entry.key] = entry.value }
        return result
    }

    public func makeIterator() -> [(key: Int, value: Value)].Iterator {
        entries.compactMap { entry in entry.value.map { (entry.key, $0) } }.makeIterator()
    }
}

extension TouchMap: Sendable where Value: Sendable {}
