import StackModel

// One model for a test's record, one shape: the `--json` report's test objects, which
// `stackplay merge` reads back. A full record (``CodingUserInfoKey/fullRecord``) also carries what
// a report leaves out; the worker's answer to its parent carries the same fields in a binary form
// of its own (StackplayRunner's `Wire`), which is read without building a JSON tree.

/// Every key of a test's record, in the order the report writes them.
enum RecordKey: String, CodingKey {
    case file, name, position, status, seconds, message
    case failurePosition = "failure_position"
    case dump, traceback, output, seed, tags, kind, expected, actual, diff, cause
    case causePosition = "cause_position"
    case traces, audit
    case auditKnown = "audit_known"
    // Only in a full record:
    case root, index, skipped, focused
    case baseName = "base_name"
    case variant, picture
}

extension CodingUserInfoKey {
    /// `true` when encoding a full record: every field of a result, also those a report
    /// leaves out (`root`, `index`, `skipped`, `focused`, `base_name`, `variant`, `picture`).
    public static let fullRecord = CodingUserInfoKey(rawValue: "stackplay.full-record")!
}

/// A case of a string enum read back, or an error that lists the cases.
private func decodeCase<T: RawRepresentable & CaseIterable>(_ type: T.Type, from decoder: any Decoder) throws
    -> T
where T.RawValue == String {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let value = T(rawValue: text) else {
        let names = T.allCases.map { "'\($0.rawValue)'" }
        let list =
            names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names.joined()
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "expected \(list), got '\(text)'"))
    }
    return value
}

extension TestResult.Status: Codable {
    public init(from decoder: any Decoder) throws { self = try decodeCase(Self.self, from: decoder) }
}

extension TestResult.FailureKind: Codable {
    public init(from decoder: any Decoder) throws { self = try decodeCase(Self.self, from: decoder) }
}

extension TestCase: Codable {
    public func encode(to encoder: any Encoder) throws {
        var record = encoder.container(keyedBy: RecordKey.self)
        try record.encode(file, forKey: .file)
        try record.encode(name, forKey: .name)
        try record.encode(position, forKey: .position)
        try record.encode(tags, forKey: .tags)
        try encodeRest(into: &record)
    }

    /// What only the wire carries.
    fileprivate func encodeRest(into record: inout KeyedEncodingContainer<RecordKey>) throws {
        try record.encodeIfPresent(root, forKey: .root)
        try record.encode(index, forKey: .index)
        try record.encode(skipped, forKey: .skipped)
        try record.encode(focused, forKey: .focused)
        try record.encode(baseName, forKey: .baseName)
        try record.encode(variant, forKey: .variant)
    }

    public init(from decoder: any Decoder) throws {
        let record = try decoder.container(keyedBy: RecordKey.self)
        let file = try record.decode(String.self, forKey: .file)
        let name = try record.decode(String.self, forKey: .name)
        try self.init(
            record, file: file, name: name, position: try record.decode(String.self, forKey: .position))
    }

    /// The test of a record whose file, name and position are read: a report's record lacks the
    /// rest (a whole file is the test named as its file; a merged test is never `only`).
    fileprivate init(
        _ record: KeyedDecodingContainer<RecordKey>, file: String, name: String, position: String
    )
        throws
    {
        self.init(
            file: file, root: try record.decodeIfPresent(String.self, forKey: .root), name: name,
            position: position,
            index: try record.decodeIfPresent(Int.self, forKey: .index) ?? (name == file ? 0 : 1),
            skipped: try record.decodeIfPresent(Bool.self, forKey: .skipped) ?? false,
            focused: try record.decodeIfPresent(Bool.self, forKey: .focused) ?? false,
            tags: try record.decodeIfPresent([String].self, forKey: .tags) ?? [])
        baseName = try record.decodeIfPresent(String.self, forKey: .baseName) ?? name
        variant = try record.decodeIfPresent(ScreenVariant.self, forKey: .variant) ?? ScreenVariant()
    }
}

extension TestResult: Codable {
    public func encode(to encoder: any Encoder) throws {
        var record = encoder.container(keyedBy: RecordKey.self)
        try record.encode(test.file, forKey: .file)
        try record.encode(test.name, forKey: .name)
        try record.encode(test.position, forKey: .position)
        try record.encode(status, forKey: .status)
        try record.encode(seconds, forKey: .seconds)
        try record.encode(message, forKey: .message)
        try record.encode(position, forKey: .failurePosition)
        try record.encode(dump, forKey: .dump)
        try record.encode(traceback, forKey: .traceback)
        try record.encode(output, forKey: .output)
        try record.encode(seed, forKey: .seed)
        try record.encode(test.tags, forKey: .tags)
        // A kind only for a failure; the expected and actual sides and the diff `null` for none.
        try record.encode(status == .failed ? kind : nil, forKey: .kind)
        for (text, key) in [(expected, RecordKey.expected), (actual, .actual), (diff, .diff)] {
            try record.encode(text.isEmpty ? nil : text, forKey: key)
        }
        // The likely cause only when there is one: every other record's bytes stay as they were.
        if !cause.isEmpty {
            try record.encode(cause, forKey: .cause)
            try record.encode(causePosition, forKey: .causePosition)
        }
        try record.encode(traces, forKey: .traces)
        try record.encode(auditIssues, forKey: .audit)
        // Only when `--audit` found known issues: every other record's bytes stay as they were.
        if !knownAuditIssues.isEmpty { try record.encode(knownAuditIssues, forKey: .auditKnown) }
        if encoder.userInfo[.fullRecord] as? Bool == true {
            try test.encodeRest(into: &record)
            try record.encode(picture, forKey: .picture)
        }
    }

    public init(from decoder: any Decoder) throws {
        let record = try decoder.container(keyedBy: RecordKey.self)
        func text(_ key: RecordKey) throws -> String {
            try record.decodeIfPresent(String.self, forKey: key) ?? ""
        }
        let file = try record.decode(String.self, forKey: .file)
        let name = try record.decode(String.self, forKey: .name)
        let status = try record.decode(Status.self, forKey: .status)
        let seconds = try record.decode(Double.self, forKey: .seconds)
        guard seconds.isFinite, seconds >= 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .seconds, in: record,
                debugDescription: "expected a duration in seconds >= 0, got \(seconds)")
        }
        var test = try TestCase(
            record, file: file, name: name, position: record.decode(String.self, forKey: .position))
        if !record.contains(.skipped) { test.skipped = status == .skipped }
        self.init(
            test: test, status: status, message: try text(.message), traceback: try text(.traceback),
            dump: try text(.dump), position: try text(.failurePosition), seconds: seconds,
            traces: try record.decodeIfPresent([String].self, forKey: .traces) ?? [],
            output: try text(.output),
            seed: try record.decodeIfPresent(Int.self, forKey: .seed) ?? 0)
        kind = try record.decodeIfPresent(FailureKind.self, forKey: .kind) ?? .error
        expected = try text(.expected)
        actual = try text(.actual)
        diff = try text(.diff)
        cause = try text(.cause)
        causePosition = try text(.causePosition)
        picture = try text(.picture)
        auditIssues = try record.decodeIfPresent([AuditIssue].self, forKey: .audit) ?? []
        knownAuditIssues = try record.decodeIfPresent([AuditIssue].self, forKey: .auditKnown) ?? []
    }
}

extension AuditType: Codable {
    public init(from decoder: any Decoder) throws { self = try decodeCase(Self.self, from: decoder) }
}

extension AuditIssue: Codable {
    private enum Key: String, CodingKey {
        case type, rule, component, kind, element, frame, compact, detail, time
    }
    private enum FrameKey: String, CodingKey { case x, y, width, height }

    public func encode(to encoder: any Encoder) throws {
        var issue = encoder.container(keyedBy: Key.self)
        try issue.encode(type, forKey: .type)
        try issue.encode(rule, forKey: .rule)
        try issue.encode(component, forKey: .component)
        try issue.encode(kind.rawValue, forKey: .kind)
        try issue.encode(element, forKey: .element)
        var box = issue.nestedContainer(keyedBy: FrameKey.self, forKey: .frame)
        try box.encode(frame.x, forKey: .x)
        try box.encode(frame.y, forKey: .y)
        try box.encode(frame.width, forKey: .width)
        try box.encode(frame.height, forKey: .height)
        try issue.encode(compact, forKey: .compact)
        try issue.encode(detail, forKey: .detail)
        try issue.encode(time, forKey: .time)
    }

    public init(from decoder: any Decoder) throws {
        let issue = try decoder.container(keyedBy: Key.self)
        let type = try issue.decode(AuditType.self, forKey: .type)
        let rule = try issue.decode(String.self, forKey: .rule)
        let component = try issue.decode(String.self, forKey: .component)
        let kind = try issue.decode(String.self, forKey: .kind)
        let element = try issue.decode(String.self, forKey: .element)
        let box = try issue.nestedContainer(keyedBy: FrameKey.self, forKey: .frame)
        let frame = Rect(
            x: try box.decode(Double.self, forKey: .x), y: try box.decode(Double.self, forKey: .y),
            width: try box.decode(Double.self, forKey: .width),
            height: try box.decode(Double.self, forKey: .height))
        self.init(
            type: type, rule: rule, component: component, kind: ComponentKind(kind), element: element,
            frame: frame,
            compact: try issue.decode(String.self, forKey: .compact),
            detail: try issue.decode(String.self, forKey: .detail),
            time: try issue.decode(Double.self, forKey: .time))
    }
}
