/// Raw DEFLATE (RFC 1951) with the fixed Huffman codes, and Base64: how the trace viewer keeps a
/// run's traces small inside one HTML page. The browser inflates them with its own
/// `DecompressionStream("deflate-raw")`. Deterministic: the same bytes in give the same bytes out.
public enum Deflate {
    /// LZ77 window and the longest match DEFLATE can say.
    static let window = 32_768
    static let longestMatch = 258
    /// How many earlier positions with the same 3-byte hash are tried: enough for JSON Lines,
    /// whose repeats are mostly the previous line's.
    static let chainLimit = 48

    static let lengthBases: [Int] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163,
        195, 227, 258,
    ]
    static let lengthExtraBits: [Int] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    static let distanceBases: [Int] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
        4097, 6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtraBits: [Int] = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]

    /// Bits, least significant first, as DEFLATE packs them.
    struct BitWriter {
        var bytes: [UInt8] = []
        var buffer: UInt32 = 0
        var count = 0

        mutating func write(_ value: Int, bits: Int) {
            buffer |= UInt32(value) << UInt32(count)
            count += bits
            while count >= 8 {
                bytes.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                count -= 8
            }
        }

        /// A Huffman code, which DEFLATE stores most significant bit first.
        mutating func write(code: Int, bits: Int) {
            var reversed = 0
            for i in 0..<bits where code & (1 << i) != 0 { reversed |= 1 << (bits - 1 - i) }
            write(reversed, bits: bits)
        }

        mutating func finish() -> [UInt8] {
            if count > 0 { bytes.append(UInt8(buffer & 0xFF)) }
            return bytes
        }
    }

    /// The fixed literal/length code of `symbol` (0...287).
    static func writeLiteral(_ symbol: Int, to out: inout BitWriter) {
        switch symbol {
        case 0...143: out.write(code: 0x30 + symbol, bits: 8)
        case 144...255: out.write(code: 0x190 + symbol - 144, bits: 9)
        case 256...279: out.write(code: symbol - 256, bits: 7)
        default: out.write(code: 0xC0 + symbol - 280, bits: 8)
        }
    }

    static func writeMatch(length: Int, distance: Int, to out: inout BitWriter) {
        var l = lengthBases.count - 1
        while lengthBases[l] > length { l -= 1 }
        writeLiteral(257 + l, to: &out)
        if lengthExtraBits[l] > 0 { out.write(length - lengthBases[l], bits: lengthExtraBits[l]) }
        var d = distanceBases.count - 1
        while distanceBases[d] > distance { d -= 1 }
        out.write(code: d, bits: 5)
        if distanceExtraBits[d] > 0 { out.write(distance - distanceBases[d], bits: distanceExtraBits[d]) }
    }

    /// `input` as one final fixed-Huffman block: greedy LZ77 over hash chains.
    public static func compress(_ input: [UInt8]) -> [UInt8] {
        var out = BitWriter()
        out.write(1, bits: 1)  // BFINAL
        out.write(1, bits: 2)  // BTYPE 01: fixed Huffman codes
        let hashSize = 1 << 15
        var head = [Int](repeating: -1, count: hashSize)
        var previous = [Int](repeating: -1, count: input.count)
        func hash(_ i: Int) -> Int {
            (Int(input[i]) << 10 ^ Int(input[i + 1]) << 5 ^ Int(input[i + 2])) & (hashSize - 1)
        }
        func insert(_ i: Int) {
            guard i + 2 < input.count else { return }
            let h = hash(i)
            previous[i] = head[h]
            head[h] = i
        }
        var i = 0
        while i < input.count {
            var bestLength = 0
            var bestDistance = 0
            if i + 2 < input.count {
                var candidate = head[hash(i)]
                var tries = 0
                let limit = min(longestMatch, input.count - i)
                while candidate >= 0, i - candidate <= window, tries < chainLimit {
                    var length = 0
                    while length < limit, input[candidate + length] == input[i + length] { length += 1 }
                    if length > bestLength {
                        bestLength = length
                        bestDistance = i - candidate
                        if length == limit { break }
                    }
                    candidate = previous[candidate]
                    tries += 1
                }
            }
            if bestLength >= 3 {
                writeMatch(length: bestLength, distance: bestDistance, to: &out)
                for j in i..<(i + bestLength) { insert(j) }
                i += bestLength
            } else {
                writeLiteral(Int(input[i]), to: &out)
                insert(i)
                i += 1
            }
        }
        writeLiteral(256, to: &out)  // end of block
        return out.finish()
    }

    static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `bytes` in Base64 (RFC 4648, with padding).
    public static func base64(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let a = Int(bytes[i])
            let b = i + 1 < bytes.count ? Int(bytes[i + 1]) : 0
            let c = i + 2 < bytes.count ? Int(bytes[i + 2]) : 0
            let triple = a << 16 | b << 8 | c
            out.append(base64Alphabet[triple >> 18 & 63])
            out.append(base64Alphabet[triple >> 12 & 63])
            out.append(i + 1 < bytes.count ? base64Alphabet[triple >> 6 & 63] : UInt8(ascii: "="))
            out.append(i + 2 < bytes.count ? base64Alphabet[triple & 63] : UInt8(ascii: "="))
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
