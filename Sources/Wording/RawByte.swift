/// A byte of a Lua string that is not valid UTF-8, as a Swift string carries it: the code point
/// U+10FF00 + byte, for the bytes 0x80...0xFF (LuaRuntime's `LuaBytes` makes and unmakes them, so
/// that two different byte strings stay two different strings). Reports show one as `\xFF`, as
/// file names that are not UTF-8 are shown.
public enum RawByte {
    /// U+10FF00: the code point of byte 0 (only 0x80...0xFF are used).
    public static let base: UInt32 = 0x10_FF00
    /// The code points that stand for bytes.
    public static let scalars: ClosedRange<UInt32> = 0x10_FF80...0x10_FFFF

    /// The byte `scalar` stands for, or nil for an ordinary character.
    public static func byte(_ scalar: Unicode.Scalar) -> UInt8? {
        scalars.contains(scalar.value) ? UInt8(scalar.value - base) : nil
    }

    /// `\xFF` for the character of byte 0xFF, nil for an ordinary character.
    public static func shown(_ scalar: Unicode.Scalar) -> String? {
        byte(scalar).map { "\\x" + String($0, radix: 16, uppercase: true) }
    }
}
