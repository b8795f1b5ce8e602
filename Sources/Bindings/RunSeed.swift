/// The seeds of `math.random`: one for the run (`--seed N`, default ``standard``), and from it one
/// for each test, so that a test draws the same numbers whichever tests run beside it, in which
/// order, on which machine.
public enum RunSeed {
    /// The run's seed when none is given.
    public static let standard = 0

    /// The seed of test `name` of `file` in a run seeded with `seed`: FNV-1a over the three,
    /// folded to 32 bits (JSON readers keep every digit).
    public static func seed(_ seed: Int, file: String, name: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ bytes: some Sequence<UInt8>) {
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            hash ^= 0xff
            hash = hash &* 0x100_0000_01b3
        }
        withUnsafeBytes(of: Int64(seed).littleEndian) { mix($0) }
        mix(file.utf8)
        mix(name.utf8)
        return Int(hash >> 32)
    }
}
