import LuaRuntime
import StackModel

/// Lua: `screen:audit([options])`, `expect(screen):to_pass_audit([options])` and the options both
/// take, which `.stackplay.lua`'s `audit` and `--audit=TYPES` share.
public enum AuditMethods {
    /// The keys of an audit options table.
    public static let optionNames = ["types", "allow"]
    /// The keys of one allow-list entry.
    public static let allowNames = ["type", "element", "component", "kind", "rule", "reason"]

    /// Audit types by name; `contrast` and `text_clipped` are refused with the reason.
    public static func types(_ names: [String]) -> Result<[AuditType], LuaError> {
        var types: [AuditType] = []
        for name in names {
            // in any case, as every name of a setting is read (`"Hit_Region"`)
            guard let type = AuditType(rawValue: name.lowercased()) else {
                let known = AuditType.allCases.map(\.rawValue)
                var detail = "unknown audit type '\(name)'"
                if let near = nearestName(to: name, in: known) { detail += " (did you mean '\(near)'?)" }
                return .failure(LuaError(detail))
            }
            if let reason = type.notApplicableReason { return .failure(LuaError(reason)) }
            if !types.contains(type) { types.append(type) }
        }
        return .success(types.sorted())
    }

    /// `{ types = { "hit_region" }, allow = { { type = "action", element = "card:*" } } }`; an
    /// error's text names the field (`field 'types': unknown audit type ...`).
    public static func options(_ entries: [String: LuaValue]) -> Result<AuditOptions, LuaError> {
        for key in entries.keys.sorted() where !optionNames.contains(key) {
            return .failure(unknown(key, optionNames, "option"))
        }
        var options = AuditOptions()
        if let value = entries["types"] {
            guard let names = strings(value) else {
                return .failure(LuaError("field 'types': a list of audit type names expected"))
            }
            switch types(names) {
            case .success(let types): options.types = types
            case .failure(let error): return .failure(LuaError("field 'types': \(error.message)"))
            }
        }
        if let value = entries["allow"] {
            let list: [LuaValue]
            switch value {
            case .array(let items): list = items
            case .table(let table) where table.isEmpty: list = []
            default:
                return .failure(LuaError("field 'allow': a list of { type =, element = } tables expected"))
            }
            for (index, item) in list.enumerated() {
                switch allowance(item) {
                case .success(let allowance): options.allow.append(allowance)
                case .failure(let error):
                    return .failure(LuaError("field 'allow' [\(index + 1)]: \(error.message)"))
                }
            }
        }
        return .success(options)
    }

    static func allowance(_ value: LuaValue) -> Result<AuditAllowance, LuaError> {
        guard case .table(let fields) = value else {
            return .failure(LuaError("a { type =, element = } table expected, got \(value.typeName)"))
        }
        for key in fields.keys.sorted() where !allowNames.contains(key) {
            return .failure(unknown(key, allowNames, "key"))
        }
        var texts: [String: String] = [:]
        for (key, field) in fields {
            guard let text = field.string else { return .failure(LuaError("'\(key)' must be a string")) }
            texts[key] = text
        }
        guard let name = texts["type"] else { return .failure(LuaError("'type' is missing")) }
        switch types([name]) {
        case .success(let types):
            return .success(
                AuditAllowance(
                    type: types[0], element: texts["element"], component: texts["component"],
                    kind: texts["kind"],
                    rule: texts["rule"], reason: texts["reason"]))
        case .failure(let error): return .failure(error)
        }
    }

    private static func unknown(_ key: String, _ known: [String], _ what: String) -> LuaError {
        var detail = "unknown \(what) '\(key)'"
        if let near = nearestName(to: key, in: known) { detail += " (did you mean '\(near)'?)" }
        return LuaError(detail)
    }

    private static func strings(_ value: LuaValue) -> [String]? {
        switch value {
        case .string(let name): return [name]
        case .table(let table) where table.isEmpty: return []
        case .array(let items):
            let names = items.compactMap(\.string)
            return names.count == items.count ? names : nil
        default: return nil
        }
    }

    /// The options of argument `position` (nil or absent: every applicable type).
    static func options(_ a: LuaArguments, at position: Int) throws -> AuditOptions {
        let entries = try LuaOptions(a, at: position, known: optionNames).entries
        switch options(entries) {
        case .success(let options): return options
        case .failure(let error):
            throw LuaError.badArgument(position, to: a.function, isMethod: a.isMethod, error.message)
        }
    }

    /// One issue as Lua sees it.
    static func issue(_ issue: AuditIssue) -> LuaValue {
        .record([
            ("type", .string(issue.type.rawValue)), ("rule", .string(issue.rule)),
            ("component", .string(issue.component)), ("kind", .string(issue.kind.rawValue)),
            ("element", .string(issue.element)), ("frame", LuaSnapshot.rect(issue.frame)),
            ("compact", .string(issue.compact)), ("detail", .string(issue.detail)),
            ("time", .number(issue.time)),
        ])
    }

    /// The issues as a report lists them, one a line, each with its detail under it.
    public static func report(_ issues: [AuditIssue]) -> String {
        issues.map { "  - \($0.line)\n      \($0.detail)" }.joined(separator: "\n")
    }

    /// `1 accessibility issue`, `3 accessibility issues`.
    public static func count(_ issues: [AuditIssue]) -> String {
        "\(issues.count) accessibility issue\(issues.count == 1 ? "" : "s")"
    }

    /// Lua: `screen:audit([options])`: the list of issues.
    static func audit(_ a: LuaArguments) throws -> [LuaValue] {
        let screen = try a.object(at: 1, as: Screen.self)
        let options = try options(a, at: 2)
        return [.array(screen.audit(options).map(issue))]
    }

    /// The prelude's `to_pass_audit`: `(count, report)` of the screen's issues, which the session
    /// keeps for the reporters when the expectation fails.
    static func expectation(_ a: LuaArguments, session: ScriptSession) throws -> [LuaValue] {
        let screen = try a.object(at: 1, as: Screen.self)
        let issues = screen.audit(try options(a, at: 2))
        if !issues.isEmpty { session.auditIssues = issues }
        return [.integer(issues.count), .string(count(issues)), .string(report(issues))]
    }
}
