import Bindings
import TestResults
import Traces
import Wording

/// `--shard-timings FILE`: shards balanced by the durations of a previous run's JUnit report.
/// Greedy longest-processing-time: the tests, longest first (ties in the run's order), each go to
/// the shard with the least time so far (ties to the lowest shard). Deterministic for a given
/// file, and every test lands in exactly one shard. A test the file lacks counts as the file's
/// median duration (1 s when the file has none).
struct ShardTimings: Equatable {
    /// Seconds by `file` and test `name`, as JUnit's `classname` and `name` attributes hold them.
    var seconds: [Key: Double]

    /// A test by its file and name, both compared as bytes (``ByteKey``).
    struct Key: Hashable {
        var file: String, name: String
        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.file.isSameBytes(rhs.file) && lhs.name.isSameBytes(rhs.name)
        }
        func hash(into hasher: inout Hasher) {
            hasher.combine(ByteKey(file))
            hasher.combine(ByteKey(name))
        }
    }

    /// The durations of the `<testcase>` elements of JUnit XML `text`, read by ``XMLTags``: a
    /// `<testcase>` inside a comment, a CDATA section or a processing instruction is no test, and
    /// an attribute's value may hold `>`.
    static func parse(junit text: String, path: String) throws(Options.UsageError) -> ShardTimings {
        var seconds: [Key: Double] = [:]
        var tags = XMLTags(text)
        while true {
            let tag: XMLTags.Tag?
            do { tag = try tags.next() } catch {
                throw Options.UsageError(
                    message: "\(path): not well-formed XML at byte \(error.offset): \(error.message)")
            }
            guard let tag else { break }
            guard tag.name == "testcase" else { continue }
            let attributes = tag.attributes
            guard let name = attributes["name"] else {
                throw Options.UsageError(message: "\(path): a <testcase> without a name")
            }
            let file = attributes["file"] ?? attributes["classname"] ?? ""
            guard let time = attributes["time"].flatMap(Double.init), time.isFinite, time >= 0 else {
                throw Options.UsageError(
                    message: "\(path): <testcase name=\"\(name)\"> needs a time in seconds >= 0, not "
                        + "'\(attributes["time"] ?? "")'")
            }
            seconds[Key(file: file, name: name), default: 0] += time
        }
        return ShardTimings(seconds: seconds)
    }

    /// Reads the JUnit file at `path`.
    static func load(_ path: String) throws(Options.UsageError) -> ShardTimings {
        let text: String
        do { text = try TraceFile.read(path) } catch {
            throw Options.UsageError(message: "--shard-timings: \(error.message)")
        }
        return try parse(junit: text, path: path)
    }

    /// XML's entities: the five named ones and numeric character references.
    static func decode(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var out = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            rest = rest[amp...]
            guard let semicolon = rest.firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: rest.startIndex)..<semicolon]
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
            if let character = named[String(entity)] {
                out += character
            } else if entity.hasPrefix("#x"), let code = UInt32(entity.dropFirst(2), radix: 16),
                let scalar = Unicode.Scalar(code)
            {
                out.unicodeScalars.append(scalar)
            } else if entity.hasPrefix("#"), let code = UInt32(entity.dropFirst()),
                let scalar = Unicode.Scalar(code)
            {
                out.unicodeScalars.append(scalar)
            } else {
                out += rest[...semicolon]
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return out + rest
    }

    /// The median of the known durations; 1 s when there are none.
    var median: Double {
        let sorted = seconds.values.sorted()
        guard !sorted.isEmpty else { return 1 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The duration `test` is expected to take.
    func duration(of test: TestCase) -> Double {
        seconds[Key(file: test.file, name: test.name)] ?? median
    }

    /// Which shard (0-based) each of `tests` goes to, out of `count`. Only the first
    /// `tests.count` shards can get a test (an empty shard is always among the lightest, and the
    /// lowest of those wins), so the work and the memory grow with the tests, not with `count`
    /// (`--shard 1/1000000000`); the lightest shard is found in a heap, n log n in all.
    func assign(_ tests: [TestCase], count: Int) -> [Int] {
        let durations = tests.map(duration(of:))
        let order = tests.indices.sorted {
            durations[$0] > durations[$1] || (durations[$0] == durations[$1] && $0 < $1)
        }
        var heap = ShardHeap(count: max(1, min(count, tests.count)))
        var shards = [Int](repeating: 0, count: tests.count)
        for index in order {
            shards[index] = heap.addToLightest(durations[index])
        }
        return shards
    }
}

/// The shards' loads, lightest first (ties: the lowest shard): a binary min-heap.
private struct ShardHeap {
    private var items: [(load: Double, shard: Int)]

    init(count: Int) { items = (0..<count).map { (0, $0) } }  // already a heap: all 0, in order

    private func less(_ a: Int, _ b: Int) -> Bool {
        items[a].load < items[b].load || (items[a].load == items[b].load && items[a].shard < items[b].shard)
    }

    /// Adds `load` to the lightest shard and says which it was.
    mutating func addToLightest(_ load: Double) -> Int {
        let shard = items[0].shard
        items[0].load += load
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < items.count, less(left, smallest) { smallest = left }
            if right < items.count, less(right, smallest) { smallest = right }
            guard smallest != parent else { return shard }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}

/// The tags of an XML document, one by one: a small tokenizer (linear in the text) that knows
/// comments, CDATA sections, processing instructions, the document type and quoted attribute
/// values, which may hold `>`. Text between tags is skipped; entities are decoded in attribute
/// values.
struct XMLTags {
    struct Tag {
        var name: String
        var attributes: [String: String]
    }

    struct Malformed: Error {
        var offset: Int
        var message: String
    }

    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    private func starts(with literal: String, at offset: Int) -> Bool {
        var at = offset
        for byte in literal.utf8 {
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
        }
        return true
    }

    /// Moves past the first `terminator` from here, or fails naming `what`, which starts at `start`.
    private mutating func skip(past terminator: String, _ what: String, from start: Int) throws(Malformed) {
        let first = terminator.utf8.first!
        while index < bytes.count {
            if bytes[index] == first, starts(with: terminator, at: index) {
                index += terminator.utf8.count
                return
            }
            index += 1
        }
        throw Malformed(offset: start, message: "\(what) is not closed with '\(terminator)'")
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        !isSpace(byte) && byte != UInt8(ascii: "/") && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "=")
            && byte != UInt8(ascii: "<") && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'")
    }

    private mutating func skipSpace() {
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
    }

    private mutating func name() -> String {
        let start = index
        while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// The next start (or empty-element) tag, nil at the end.
    mutating func next() throws(Malformed) -> Tag? {
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            let start = index
            if starts(with: "<!--", at: index) {
                index += 4
                try skip(past: "-->", "a comment", from: start)
            } else if starts(with: "<![CDATA[", at: index) {
                index += 9
                try skip(past: "]]>", "a CDATA section", from: start)
            } else if starts(with: "<?", at: index) {
                index += 2
                try skip(past: "?>", "a processing instruction", from: start)
            } else if starts(with: "<!", at: index) {
                try skipDeclaration()
            } else if starts(with: "</", at: index) {
                index += 2
                try skip(past: ">", "an end tag", from: start)
            } else {
                index += 1
                let tagName = name()
                guard !tagName.isEmpty else {
                    throw Malformed(offset: start, message: "'<' that starts no tag")
                }
                return Tag(name: tagName, attributes: try attributes(of: tagName, from: start))
            }
        }
        return nil
    }

    /// `<!DOCTYPE ...>`, with an internal subset in brackets that may hold quoted `>`.
    private mutating func skipDeclaration() throws(Malformed) {
        let start = index
        var depth = 0
        index += 2
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                while index < bytes.count, bytes[index] != byte { index += 1 }
                index += 1
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ">") where depth <= 0: return
            default: break
            }
        }
        throw Malformed(offset: start, message: "a declaration is not closed with '>'")
    }

    private mutating func attributes(of tag: String, from start: Int) throws(Malformed) -> [String: String] {
        var result: [String: String] = [:]
        while true {
            skipSpace()
            guard index < bytes.count else {
                throw Malformed(offset: start, message: "<\(tag) is not closed with '>'")
            }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                return result
            }
            if starts(with: "/>", at: index) {
                index += 2
                return result
            }
            let at = index
            let attribute = name()
            guard !attribute.isEmpty else {
                throw Malformed(offset: at, message: "an attribute of <\(tag)> expected")
            }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw Malformed(offset: at, message: "attribute '\(attribute)' of <\(tag)> has no '=value'")
            }
            index += 1
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'")
            else {
                throw Malformed(
                    offset: at, message: "attribute '\(attribute)' of <\(tag)> needs a quoted value")
            }
            let quote = bytes[index]
            index += 1
            let valueStart = index
            while index < bytes.count, bytes[index] != quote { index += 1 }
            guard index < bytes.count else {
                throw Malformed(offset: at, message: "attribute '\(attribute)' of <\(tag)> is not closed")
            }
            let raw = String(decoding: bytes[valueStart..<index], as: UTF8.self)
            index += 1
            result[attribute] = ShardTimings.decode(Substring(raw))
        }
    }
}
