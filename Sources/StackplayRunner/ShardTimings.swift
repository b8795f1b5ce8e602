import Bindings
import TestResults
import Traces

/// `--shard-timings FILE`: shards balanced by the durations of a previous run's JUnit report.
/// Greedy longest-processing-time: the tests, longest first (ties in the run's order), each go to
/// the shard with the least time so far (ties to the lowest shard). Deterministic for a given
/// file, and every test lands in exactly one shard. A test the file lacks counts as the file's
/// median duration (1 s when the file has none).
struct ShardTimings: Equatable {
    /// Seconds by `file` and test `name`, as JUnit's `classname` and `name` attributes hold them.
    var seconds: [Key: Double]

    struct Key: Hashable { var file: String, name: String }

    /// The durations of the `<testcase>` elements of JUnit XML `text`.
    static func parse(junit text: String, path: String) throws(Options.UsageError) -> ShardTimings {
        var seconds: [Key: Double] = [:]
        var rest = Substring(text)
        while let start = rest.firstRange(of: "<testcase") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(of: ">") else { break }
            let attributes = Self.attributes(rest[..<end])
            rest = rest[end...]
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

    /// `name="x" time='1.5'` → its attributes, XML entities decoded.
    static func attributes(_ text: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var rest = text
        while let equals = rest.firstIndex(of: "=") {
            let name =
                rest[..<equals].split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
                .last.map(String.init) ?? ""
            rest = rest[rest.index(after: equals)...].drop { $0 == " " }
            guard let quote = rest.first, quote == "\"" || quote == "'" else { break }
            rest = rest.dropFirst()
            guard let close = rest.firstIndex(of: quote) else { break }
            result[name] = decode(rest[..<close])
            rest = rest[rest.index(after: close)...]
        }
        return result
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

    /// Which shard (0-based) each of `tests` goes to, out of `count`.
    func assign(_ tests: [TestCase], count: Int) -> [Int] {
        let durations = tests.map(duration(of:))
        let order = tests.indices.sorted {
            durations[$0] > durations[$1] || (durations[$0] == durations[$1] && $0 < $1)
        }
        var loads = [Double](repeating: 0, count: count)
        var shards = [Int](repeating: 0, count: tests.count)
        for index in order {
            var lightest = 0
            for shard in 1..<count where loads[shard] < loads[lightest] { lightest = shard }
            shards[index] = lightest
            loads[lightest] += durations[index]
        }
        return shards
    }
}
