import Bindings
import StackModel
import TestResults

/// The bytes a worker process sends its parent: a test's result or a file's tests, written and
/// read field by field (lengths as 8-byte little-endian integers, doubles by their bits).
struct WireWriter {
    private(set) var bytes: [UInt8] = []

    mutating func int(_ value: Int) {
        withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) }
    }
    mutating func double(_ value: Double) { int(Int(Int64(bitPattern: value.bitPattern))) }
    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
    mutating func string(_ value: String) {
        int(value.utf8.count)
        bytes.append(contentsOf: value.utf8)
    }
    mutating func optionalString(_ value: String?) {
        bool(value != nil)
        if let value { string(value) }
    }

    mutating func test(_ test: TestCase) {
        string(test.file)
        optionalString(test.root)
        string(test.name)
        string(test.position)
        int(test.index)
        bool(test.skipped)
        bool(test.focused)
        int(test.tags.count)
        for tag in test.tags { string(tag) }
        string(test.baseName)
        int(test.variant.settings.count)
        for setting in test.variant.settings {
            string(setting.key)
            string(setting.value)
        }
    }

    mutating func result(_ result: TestResult) {
        test(result.test)
        string(result.status.rawValue)
        for text in [result.message, result.traceback, result.dump, result.position, result.output] {
            string(text)
        }
        double(result.seconds)
        int(result.traces.count)
        for trace in result.traces { string(trace) }
        int(result.seed)
        string(result.kind.rawValue)
        for text in [result.expected, result.actual, result.diff, result.picture] { string(text) }
        int(result.auditIssues.count)
        for issue in result.auditIssues { self.issue(issue) }
    }

    mutating func issue(_ issue: AuditIssue) {
        for text in [
            issue.type.rawValue, issue.rule, issue.component, issue.kind.rawValue, issue.element,
            issue.compact, issue.detail,
        ] {
            string(text)
        }
        for number in [issue.frame.x, issue.frame.y, issue.frame.width, issue.frame.height, issue.time] {
            double(number)
        }
    }
}

/// Reads what ``WireWriter`` wrote; nil from every read once the bytes run out or make no sense.
struct WireReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func int() -> Int? {
        guard offset + 8 <= bytes.count else { return nil }
        var value: UInt64 = 0
        for shift in 0..<8 { value |= UInt64(bytes[offset + shift]) << (8 * UInt64(shift)) }
        offset += 8
        return Int(Int64(bitPattern: value))
    }
    mutating func double() -> Double? { int().map { Double(bitPattern: UInt64(bitPattern: Int64($0))) } }
    mutating func bool() -> Bool? {
        guard offset < bytes.count else { return nil }
        offset += 1
        return bytes[offset - 1] != 0
    }
    mutating func string() -> String? {
        guard let count = int(), count >= 0, offset + count <= bytes.count else { return nil }
        defer { offset += count }
        return String(decoding: bytes[offset..<offset + count], as: UTF8.self)
    }
    mutating func optionalString() -> String?? {
        guard let present = bool() else { return nil }
        return present ? string().map { $0 } : .some(nil)
    }

    mutating func test() -> TestCase? {
        guard let file = string(), let root = optionalString(), let name = string(), let position = string(),
            let index = int(), let skipped = bool(), let focused = bool(), let count = int(), count >= 0
        else { return nil }
        var tags: [String] = []
        for _ in 0..<count {
            guard let tag = string() else { return nil }
            tags.append(tag)
        }
        guard let baseName = string(), let settings = int(), settings >= 0 else { return nil }
        var variant = ScreenVariant()
        for _ in 0..<settings {
            guard let key = string(), let value = string() else { return nil }
            variant.settings.append(ScreenVariant.Setting(key: key, value: value))
        }
        var test = TestCase(
            file: file, root: root, name: name, position: position, index: index, skipped: skipped,
            focused: focused, tags: tags)
        test.baseName = baseName
        test.variant = variant
        return test
    }

    mutating func result() -> TestResult? {
        guard let test = test(), let statusName = string(), let status = TestResult.Status(rawValue: statusName),
            let message = string(), let traceback = string(), let dump = string(), let position = string(),
            let output = string(), let seconds = double(), let count = int(), count >= 0
        else { return nil }
        var traces: [String] = []
        for _ in 0..<count {
            guard let trace = string() else { return nil }
            traces.append(trace)
        }
        guard let seed = int(), let kindName = string(),
            let kind = TestResult.FailureKind(rawValue: kindName),
            let expected = string(), let actual = string(), let diff = string(), let picture = string()
        else { return nil }
        var result = TestResult(
            test: test, status: status, message: message, traceback: traceback, dump: dump, position: position,
            seconds: seconds, traces: traces, output: output, seed: seed)
        result.kind = kind
        result.expected = expected
        result.actual = actual
        result.diff = diff
        result.picture = picture
        guard let issues = int(), issues >= 0 else { return nil }
        for _ in 0..<issues {
            guard let issue = issue() else { return nil }
            result.auditIssues.append(issue)
        }
        return result
    }

    mutating func issue() -> AuditIssue? {
        guard let typeName = string(), let type = AuditType(rawValue: typeName), let rule = string(),
            let component = string(), let kind = string(), let element = string(), let compact = string(),
            let detail = string(), let x = double(), let y = double(), let width = double(),
            let height = double(), let time = double()
        else { return nil }
        return AuditIssue(
            type: type, rule: rule, component: component, kind: ComponentKind(kind), element: element,
            frame: Rect(x: x, y: y, width: width, height: height), compact: compact, detail: detail, time: time)
    }
}
