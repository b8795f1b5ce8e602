/// A few values keyed by touch id, kept in an array: with one or two fingers down, a linear look-up
/// is cheaper than hashing, and a touch move does several of them.
public struct TouchMap<Value>: Sequence {
    private var entries: [(key: Int, value: Value)] = []

    public init() {}

    public subscript(key: Int) -> Value? {
        get { entries.first { $0.key == key }?.value }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append((key, newValue))
            }
        }
    }

    @discardableResult
    public mutating func removeValue(forKey key: Int) -> Value? {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
        return entries.remove(at: index).value
    }

    public var values: [Value] { entries.map(\.value) }
    public var isEmpty: Bool { entries.isEmpty }
    public var count: Int { entries.count }

    public func filter(_ isIncluded: ((key: Int, value: Value)) throws -> Bool) rethrows -> TouchMap {
        var result = TouchMap()
        result.entries = try entries.filter(isIncluded)
        return result
    }

    public func makeIterator() -> IndexingIterator<[(key: Int, value: Value)]> { entries.makeIterator() }
}

extension TouchMap: Sendable where Value: Sendable {}
