import StackModel
import TestResults

#if canImport(Glibc)
    import Glibc
#endif

/// The bytes a worker process sends its parent: a test's result or a file's tests. Everything is
/// written field by field, in a fixed order: integers and doubles as 8-byte little-endian words,
/// strings length first. A test and a result carry every field of the record model that
/// ``TestResult``'s `Codable` encoding (the `--json` report's) carries, also those a report
/// leaves out, so that what the parent reads is what the worker had. It is not JSON: the
/// parent reads a 10,000-test run's answers without building and decoding a JSON tree each
/// (issue 21: the decoding was most of a big file's parent time and a third of a one-line
/// script's start-up).
package struct WireWriter {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    /// Makes room for `count` more bytes at once: a long answer then grows in place, never holding
    /// its old copy beside a twice larger new one (the pages of room it does not use are never
    /// touched, so they cost no memory).
    package mutating func reserve(_ count: Int) { bytes.reserveCapacity(bytes.count + count) }

    package mutating func int(_ value: Int) {
        withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) }
    }
    package mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
    package mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }
    package mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { text in
            int(text.count)
            bytes.append(contentsOf: text)
        }
    }
    /// A string or none: a flag, then the string when there is one.
    package mutating func optionalString(_ value: String?) {
        bool(value != nil)
        if let value { string(value) }
    }
    package mutating func strings(_ values: [String]) {
        int(values.count)
        for value in values { string(value) }
    }

    package mutating func test(_ test: TestCase) {
        string(test.file)
        optionalString(test.root)
        string(test.name)
        string(test.position)
        int(test.index)
        bool(test.skipped)
        bool(test.focused)
        strings(test.tags)
        let settings = test.variant.settings
        int(settings.count)
        for setting in settings {
            string(setting.key)
            string(setting.value)
        }
        string(test.baseName)
    }

    /// `result`, field by field. With `known`, the test the reader already has (the request's):
    /// a flag says whether the result's test is that one, which is then left out.
    package mutating func result(_ result: TestResult, known: TestCase? = nil) {
        if let known {
            let same = result.test.isSameStorage(as: known) || Self.sameOnWire(result.test, known)
            // a passed or skipped test of the known test with nothing to tell but its time and
            // seed, as most are: those two alone
            if same, let status = Self.plainStatus(result) {
                bytes.append(status)
                double(result.seconds)
                int(result.seed)
                return
            }
            bool(same)
            if !same { test(result.test) }
        } else {
            test(result.test)
        }
        string(result.status.rawValue)
        for text in [result.message, result.traceback, result.dump, result.position] { string(text) }
        double(result.seconds)
        strings(result.traces)
        string(result.output)
        int(result.seed)
        // as the record model: a kind only for a failure
        string((result.status == .failed ? result.kind : .error).rawValue)
        for text in [
            result.expected, result.actual, result.diff, result.picture, result.cause, result.causePosition,
        ] {
            string(text)
        }
        auditIssues(result.auditIssues)
        auditIssues(result.knownAuditIssues)
    }

    /// The flag of a result that is only its status, time and seed (after the flags of
    /// ``bool(_:)``, 0 and 1): 2 for passed, 3 for skipped; nil for any other.
    package static func plainStatus(_ result: TestResult) -> UInt8? {
        guard result.status != .failed, result.message.isEmpty, result.traceback.isEmpty, result.dump.isEmpty,
            result.position.isEmpty, result.traces.isEmpty, result.output.isEmpty, result.expected.isEmpty,
            result.actual.isEmpty, result.diff.isEmpty, result.picture.isEmpty, result.cause.isEmpty,
            result.auditIssues.isEmpty,
            result.knownAuditIssues.isEmpty
        else { return nil }
        return result.status == .passed ? plainPassed : plainSkipped
    }
    package static let plainPassed: UInt8 = 2
    package static let plainSkipped: UInt8 = 3

    /// Whether `a` and `b` write the same bytes: every field equal, texts byte for byte (as
    /// `TestCase`'s `==`, without its generic walk over each text: a result's test is checked
    /// against its request's at every test).
    package static func sameOnWire(_ a: TestCase, _ b: TestCase) -> Bool {
        guard a.index == b.index, a.skipped == b.skipped, a.focused == b.focused,
            a.tags.count == b.tags.count,
            sameBytes(a.file, b.file), sameBytes(a.name, b.name), sameBytes(a.position, b.position),
            sameBytes(a.baseName, b.baseName), a.variant == b.variant
        else { return false }
        switch (a.root, b.root) {
        case (nil, nil): break
        case (let x?, let y?): guard sameBytes(x, y) else { return false }
        default: return false
        }
        return zip(a.tags, b.tags).allSatisfy { sameBytes($0, $1) }
    }

    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                x.count == y.count && (x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0)
            }
        }
    }

    private mutating func auditIssues(_ issues: [AuditIssue]) {
        int(issues.count)
        for issue in issues {
            for text in [
                issue.type.rawValue, issue.rule, issue.component, issue.kind.rawValue, issue.element,
            ] {
                string(text)
            }
            for number in [issue.frame.x, issue.frame.y, issue.frame.width, issue.frame.height] {
                double(number)
            }
            string(issue.compact)
            string(issue.detail)
            double(issue.time)
        }
    }
}

/// Reads what ``WireWriter`` wrote; nil from every read once the bytes run out or make no sense.
package struct WireReader {
    private let bytes: [UInt8]
    private var offset = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    private mutating func word() -> UInt64? {
        guard offset + 8 <= bytes.count else { return nil }
        let value = bytes.withUnsafeBytes {
            UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        offset += 8
        return value
    }
    package mutating func int() -> Int? { word().map { Int(Int64(bitPattern: $0)) } }
    package mutating func double() -> Double? { word().map(Double.init(bitPattern:)) }
    package mutating func bool() -> Bool? {
        guard offset < bytes.count else { return nil }
        offset += 1
        return bytes[offset - 1] != 0
    }
    package mutating func string() -> String? {
        guard let count = int(), count >= 0, count <= bytes.count - offset else { return nil }
        if count == 0 { return "" }  // most of a result's texts
        defer { offset += count }
        return bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[offset..<offset + count]), as: UTF8.self)
        }
    }

    /// A string, `candidate` itself when it has the same bytes: a file's tests share its path, a
    /// passed test's result its test's position, and a shared string is not made again.
    package mutating func string(reusing candidate: String?) -> String? {
        guard var candidate else { return string() }
        let start = offset
        guard let count = int(), count >= 0, count <= bytes.count - offset else { return nil }
        let same = candidate.withUTF8 { known in
            known.count == count
                && bytes.withUnsafeBufferPointer {
                    count == 0 || memcmp(known.baseAddress!, $0.baseAddress! + offset, count) == 0
                }
        }
        guard same else {
            offset = start
            return string()
        }
        offset += count
        return candidate
    }

    /// What ``WireWriter/optionalString(_:)`` wrote: `.some(nil)` for none, nil when the bytes
    /// run out.
    package mutating func optionalString(reusing candidate: String? = nil) -> String?? {
        guard let present = bool() else { return nil }
        guard present else { return .some(nil) }
        guard let text = string(reusing: candidate) else { return nil }
        return .some(text)
    }

    /// `count` items that `item` reads, or nil when one is missing (or the count makes no sense).
    private mutating func list<T>(_ item: (inout WireReader) -> T?) -> [T]? {
        guard let count = int(), count >= 0, count <= bytes.count - offset else { return nil }
        if count == 0 { return [] }  // most tests' tags and settings: no buffer to reserve
        var items: [T] = []
        items.reserveCapacity(count)
        for _ in 0..<count {
            guard let next = item(&self) else { return nil }
            items.append(next)
        }
        return items
    }

    package mutating func strings() -> [String]? { list { $0.string() } }

    /// A test; with `previous`, the one read before it (of the same file, mostly), whose path it
    /// then shares.
    package mutating func test(after previous: TestCase? = nil) -> TestCase? {
        guard let file = string(reusing: previous?.file), let root = optionalString(reusing: previous?.root),
            let name = string(), let position = string(),
            let index = int(), let skipped = bool(), let focused = bool(), let tags = strings(),
            let settings = list({ reader -> (key: String, value: String)? in
                guard let key = reader.string(), let value = reader.string() else { return nil }
                return (key, value)
            }),
            let baseName = string(reusing: name)
        else { return nil }
        var test = TestCase(
            file: file, root: root, name: name, position: position, index: index, skipped: skipped,
            focused: focused, tags: tags)
        if !baseName.isSameBytes(name) { test.baseName = baseName }  // (it is its name until a variant)
        if !settings.isEmpty {
            guard let variant = try? ScreenVariant(validating: settings) else { return nil }
            test.variant = variant
        }
        return test
    }

    /// What ``WireWriter/result(_:known:)`` wrote, with the same `known`.
    package mutating func result(known: TestCase? = nil) -> TestResult? {
        let test: TestCase?
        if let known {
            guard offset < bytes.count else { return nil }
            let flag = bytes[offset]
            if flag == WireWriter.plainPassed || flag == WireWriter.plainSkipped {
                offset += 1
                guard let seconds = double(), seconds.isFinite, seconds >= 0, let seed = int() else {
                    return nil
                }
                return TestResult(
                    test: known, status: flag == WireWriter.plainPassed ? .passed : .skipped,
                    seconds: seconds,
                    seed: seed)
            }
            guard let same = bool() else { return nil }
            test = same ? known : self.test()
        } else {
            test = self.test()
        }
        guard let test, let status = string().flatMap(TestResult.Status.init(rawValue:)),
            let message = string(), let traceback = string(), let dump = string(),
            let position = string(reusing: test.position),
            let seconds = double(), seconds.isFinite, seconds >= 0, let traces = strings(),
            let output = string(), let seed = int(),
            let kind = string().flatMap(TestResult.FailureKind.init(rawValue:)),
            let expected = string(), let actual = string(), let diff = string(), let picture = string(),
            let cause = string(), let causePosition = string(),
            let issues = list({ $0.auditIssue() }), let knownIssues = list({ $0.auditIssue() })
        else { return nil }
        var result = TestResult(
            test: test, status: status, message: message, traceback: traceback, dump: dump,
            position: position,
            seconds: seconds, traces: traces, output: output, seed: seed)
        result.kind = kind
        result.expected = expected
        result.actual = actual
        result.diff = diff
        result.picture = picture
        result.cause = cause
        result.causePosition = causePosition
        result.auditIssues = issues
        result.knownAuditIssues = knownIssues
        return result
    }

    private mutating func auditIssue() -> AuditIssue? {
        guard let type = string().flatMap(AuditType.init(rawValue:)), let rule = string(),
            let component = string(), let kind = string(), let element = string(), let x = double(),
            let y = double(), let width = double(), let height = double(), let compact = string(),
            let detail = string(), let time = double()
        else { return nil }
        return AuditIssue(
            type: type, rule: rule, component: component, kind: ComponentKind(kind), element: element,
            frame: Rect(x: x, y: y, width: width, height: height), compact: compact, detail: detail,
            time: time)
    }
}
