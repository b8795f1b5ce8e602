/// Ids, names and file names are bytes: two that differ in one byte are two. Swift's `String ==`,
/// `<` and `hash` follow Unicode canonical equivalence, so NFC "café" (`"caf\u{E9}"`) and NFD
/// "café" (`"cafe\u{301}"`) compare equal and share a `Set` slot. Every comparison of an id, a
/// name or a file name goes through ``String/isSameBytes(_:)``, ``String/precedesInBytes(_:)``
/// or a ``ByteKey``, which compare the UTF-8 (and so the Lua bytes, `RawByte`) as they are.
extension String {
    /// Whether `self` and `other` are the same UTF-8 bytes, not merely canonically equivalent.
    @inlinable public func isSameBytes(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        // native strings hold their UTF-8 in one piece: compared as two buffers, not code unit by
        // code unit through the views (a run compares a file's path at every result)
        // (one stored string, as a file's path in each of its tests' results: the same bytes)
        let contiguous = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in ByteBuffers.same(mine, theirs) }
        }
        return (contiguous ?? nil) ?? utf8.elementsEqual(other.utf8)
    }

    /// Whether `self` comes before `other` in byte order (UTF-8, so code point order).
    @inlinable public func precedesInBytes(_ other: String) -> Bool {
        // in one piece, as native strings are: compared as two buffers (a folder's files are sorted)
        let contiguous = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in ByteBuffers.precedes(mine, theirs) }
        }
        return (contiguous ?? nil) ?? utf8.lexicographicallyPrecedes(other.utf8)
    }
}

/// Byte buffers read eight bytes at a time: the generic `elementsEqual` and
/// `lexicographicallyPrecedes` go byte by byte through an iterator (a runner compares a test's
/// names at every result, and sorts a folder's paths).
public enum ByteBuffers {
    /// Whether `a` and `b` hold the same bytes.
    @inlinable public static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        guard a.count == b.count else { return false }
        // empty, or one storage (a file's path shared by its tests)
        guard let first = a.baseAddress, let second = b.baseAddress, first != second else { return true }
        let left = UnsafeRawPointer(first)
        let right = UnsafeRawPointer(second)
        var offset = 0
        while offset + 8 <= a.count {
            guard
                left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    == right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return false }
            offset += 8
        }
        while offset < a.count {
            guard a[offset] == b[offset] else { return false }
            offset += 1
        }
        return true
    }

    /// Whether every byte of `bytes` is below 0x80 (ASCII).
    @inlinable public static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(start)
        var offset = 0
        while offset + 8 <= bytes.count {
            if raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
                return false
            }
            offset += 8
        }
        while offset < bytes.count {
            if start[offset] >= 0x80 { return false }
            offset += 1
        }
        return true
    }

    /// Whether `a` comes before `b` in byte order: at the first byte that differs, or, when one is
    /// the start of the other, the shorter first.
    @inlinable public static func precedes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        let common = min(a.count, b.count)
        if common > 0, let first = a.baseAddress, let second = b.baseAddress {
            let left = UnsafeRawPointer(first)
            let right = UnsafeRawPointer(second)
            var offset = 0
            while offset + 8 <= common {
                let mine = left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                let theirs = right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                // read as big-endian numbers, eight bytes order as their first difference does
                if mine != theirs { return UInt64(bigEndian: mine) < UInt64(bigEndian: theirs) }
                offset += 8
            }
            while offset < common {
                if a[offset] != b[offset] { return a[offset] < b[offset] }
                offset += 1
            }
        }
        return a.count < b.count
    }
}

extension Sequence where Element == String {
    /// Whether one of the strings is `name`'s bytes (``String/isSameBytes(_:)``).
    @inlinable public func containsBytes(_ name: String) -> Bool { contains { $0.isSameBytes(name) } }

    /// The strings in byte order (``String/precedesInBytes(_:)``): each one's bytes taken out
    /// once, and compared as buffers (a folder's paths, sorted at every run).
    @inlinable public func sortedByBytes() -> [String] {
        let strings = Array(self)
        guard strings.count > 1 else { return strings }
        let bytes = strings.map { Array($0.utf8) }
        let order = bytes.indices.sorted { first, second in
            bytes[first].withUnsafeBufferPointer { mine in
                bytes[second].withUnsafeBufferPointer { theirs in ByteBuffers.precedes(mine, theirs) }
            }
        }
        return order.map { strings[$0] }
    }
}

/// A string as a key of a `Set` or `Dictionary` that compares, hashes and orders by its bytes:
/// ``String/isSameBytes(_:)`` for `==`, the UTF-8 for `hash`, ``String/precedesInBytes(_:)`` for `<`.
public struct ByteKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let text: String

    @inlinable public init(_ text: String) { self.text = text }

    @inlinable public static func == (lhs: ByteKey, rhs: ByteKey) -> Bool { lhs.text.isSameBytes(rhs.text) }
    @inlinable public static func < (lhs: ByteKey, rhs: ByteKey) -> Bool {
        lhs.text.precedesInBytes(rhs.text)
    }

    public func hash(into hasher: inout Hasher) {
        var text = self.text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(text.utf8.count)
    }

    public var description: String { text }
}

extension Optional where Wrapped == String {
    /// Whether both are nil, or both are the same bytes (``String/isSameBytes(_:)``).
    @inlinable public func isSameBytes(_ other: String?) -> Bool {
        switch (self, other) {
        case (nil, nil): true
        case (let a?, let b?): a.isSameBytes(b)
        default: false
        }
    }
}

extension String {
    /// Whether `part`'s bytes occur in `self`'s (`--filter`): a byte search, where `String.contains`
    /// would match NFC "café" in NFD "café" and miss "e" in "e\u{301}".
    public func includesBytes(_ part: String) -> Bool {
        let needle = Array(part.utf8)
        guard !needle.isEmpty else { return true }
        let haystack = Array(utf8)
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<start + needle.count].elementsEqual(needle) { return true }
        }
        return false
    }
}

extension String {
    /// The text with every character outside ASCII as `\u{E9}`: two spellings that read the same
    /// (NFC and NFD "café": `caf\u{E9}`, `cafe\u{301}`) shown apart, for a message about them.
    public var spelledOut: String {
        var out = ""
        for scalar in unicodeScalars {
            if scalar.isASCII {
                out.unicodeScalars.append(scalar)
            } else {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }
}
