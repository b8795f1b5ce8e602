import LuaRuntime
import Bindings
import StackModel

/// The project's `.stackplay.lua`: a Lua file that returns a table of defaults, read in the same
/// sandbox as scripts. Flags on the command line win over it.
struct Config {
    static let fileName = ".stackplay.lua"
    static let keys = [
        "paths", "screen", "cpu_budget", "memory_budget", "reporter", "jobs", "junit", "seed", "matrix", "audit",
    ]

    var paths: [String] = []
    /// `screen = { width =, height =, layout_direction =, reduce_motion =, dynamic_type = }`:
    /// what every `stackplay.screen {}` gets for the settings it does not give.
    var screen = ScreenDefaults()
    var cpuBudget: Double?
    var memoryMiB: Double?
    var reporter: Options.Format?
    var jobs: Int?
    var junit: String?
    var seed: Int?
    var matrix = Matrix()
    /// `audit = { types =, allow = }`: what `--audit` checks and the known issues it allows.
    var audit: AuditOptions?

    struct Invalid: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// Reads `.stackplay.lua` from `folder` (the current one by default); an empty config when
    /// there is none.
    static func load(in folder: String = ".") throws(Invalid) -> Config {
        let path = folder == "." ? fileName : folder + "/" + fileName
        guard Discovery.kind(of: path) == .file else { return Config() }
        let values: [LuaValue]
        do {
            let lua = try ScriptRunner(modules: []).makeState(root: folder)
            values = try lua.evaluate(file: path)
        } catch {
            throw Invalid(message: "\(error)")
        }
        let table: [String: LuaValue]
        switch values.first {
        case .table(let fields)?: table = fields
        case .array(let list)? where list.isEmpty: table = [:]
        default:
            throw Invalid(
                message: "\(fileName): must return a table, got \(values.first.map(describe) ?? "nothing")")
        }
        var config = Config()
        for (key, value) in table.sorted(by: { $0.key < $1.key }) {
            func bad(_ expected: String) -> Invalid {
                Invalid(message: "\(fileName): '\(key)' must be \(expected), got \(describe(value))")
            }
            switch key {
            case "paths":
                switch value {
                case .string(let path): config.paths = [path]
                case .array(let list):
                    config.paths = try list.map { item throws(Invalid) in
                        guard let path = item.string else { throw bad("a list of paths") }
                        return path
                    }
                default: throw bad("a path or a list of paths")
                }
            case "screen":
                config.screen = try screenDefaults(value)
            case "cpu_budget":
                guard let number = value.number, number > 0, number.isFinite else {
                    throw bad("a positive number of seconds")
                }
                config.cpuBudget = number
            case "memory_budget":
                guard let number = value.number, LuaBudget.isValid(memoryMiB: number) else {
                    throw bad(LuaBudget.memoryMiBExpectation)
                }
                config.memoryMiB = number
            case "reporter":
                guard let name = value.string, let format = Options.Format(rawValue: name) else {
                    throw bad("'human', 'tap' or 'json'")
                }
                config.reporter = format
            case "jobs":
                let range = Options.jobRange
                guard let number = value.number, number == number.rounded(),
                    Double(range.lowerBound)...Double(range.upperBound) ~= number
                else { throw bad("a whole number from \(range.lowerBound) to \(range.upperBound)") }
                config.jobs = Int(number)
            case "seed":
                guard case .integer(let number) = value, number >= 0 else {
                    throw bad("a whole number >= 0")
                }
                config.seed = number
            case "matrix":
                config.matrix = try matrix(value)
            case "audit":
                config.audit = try audit(value)
            case "junit":
                guard let path = value.string else { throw bad("a path") }
                config.junit = path
            default:
                let near = nearestName(to: key, in: keys)
                throw Invalid(
                    message: "\(fileName): unknown key '\(key)'"
                        + (near.map { " (did you mean '\($0)'?)" } ?? ""))
            }
        }
        return config
    }

    /// `matrix = { "layout_direction=ltr,rtl", "dynamic_type=all" }` (axes in this order), or
    /// `matrix = { layout_direction = { "ltr", "rtl" }, dynamic_type = "all" }` (axes by key name).
    private static func matrix(_ value: LuaValue) throws(Invalid) -> Matrix {
        var matrix = Matrix()
        do {
            switch value {
            case .array(let axes):
                for axis in axes {
                    guard let text = axis.string else {
                        throw Invalid(message: "\(fileName): 'matrix' must list axes as \"KEY=V1,V2\" strings")
                    }
                    try matrix.add(text)
                }
            case .table(let axes):
                for (key, values) in axes.sorted(by: { $0.key < $1.key }) {
                    switch values {
                    case .string(let text): try matrix.add(key: key, values: [text])
                    case .array(let list):
                        let texts = list.map { item -> String in
                            switch item {
                            case .string(let text): text
                            case .integer(let number): String(number)
                            case .number(let number): formatNumber(number)
                            case .boolean(let flag): String(flag)
                            default: ""
                            }
                        }
                        try matrix.add(key: key, values: texts)
                    default:
                        throw Invalid(message: "\(fileName): 'matrix.\(key)' must be a value or a list of values")
                    }
                }
            default:
                throw Invalid(message: "\(fileName): 'matrix' must be a table of axes")
            }
        } catch let error as Invalid {
            throw error
        } catch let error as VariantError {
            throw Invalid(message: "\(fileName): 'matrix': \(error.message)")
        } catch {
            throw Invalid(message: "\(fileName): 'matrix': \(error)")
        }
        return matrix
    }

    /// The fields of a table key (`{}` reads as an empty list in Lua, and counts); anything else is
    /// `expectation`, then what it got.
    private static func table(_ value: LuaValue, _ expectation: String) throws(Invalid) -> [String: LuaValue] {
        switch value {
        case .table(let table): return table
        case .array(let list) where list.isEmpty: return [:]
        default: throw Invalid(message: "\(fileName): \(expectation), got \(describe(value))")
        }
    }

    /// The `audit` table, read as `screen:audit(options)` reads its options.
    private static func audit(_ value: LuaValue) throws(Invalid) -> AuditOptions {
        let fields = try table(value, "'audit' must be a table { types =, allow = }")
        switch AuditMethods.options(fields) {
        case .success(let options): return options
        case .failure(let error): throw Invalid(message: "\(fileName): 'audit': \(error.message)")
        }
    }

    /// The `screen` table: each setting checked as `stackplay.screen {}` checks it; an unknown
    /// key is named with the nearest known one.
    private static func screenDefaults(_ value: LuaValue) throws(Invalid) -> ScreenDefaults {
        let fields = try table(
            value, "'screen' must be a table of screen settings (\(ScreenDefaults.keys.joined(separator: ", ")))")
        var defaults = ScreenDefaults()
        for (name, item) in fields.sorted(by: { $0.key < $1.key }) {
            func bad(_ expected: String) -> Invalid {
                Invalid(message: "\(fileName): 'screen.\(name)' must be \(expected), got \(describe(item))")
            }
            switch name {
            case "width", "height":
                guard let number = item.number, number.isFinite, number >= 0 else {
                    throw bad("a number >= 0")
                }
                if name == "width" { defaults.width = number } else { defaults.height = number }
            case "layout_direction":
                guard let text = item.string else { throw bad("'ltr' or 'rtl'") }
                guard let direction = LayoutDirection(rawValue: text) else {
                    throw Invalid(
                        message:
                            "\(fileName): 'screen.layout_direction': \(ScreenDefaults.unknownDirection(text))"
                    )
                }
                defaults.layoutDirection = direction
            case "reduce_motion":
                guard case .boolean(let flag) = item else { throw bad("true or false") }
                defaults.reduceMotion = flag
            case "dynamic_type":
                guard let text = item.string else { throw bad("a Dynamic Type size ('large', 'AX1', ...)") }
                guard let size = DynamicTypeSize(name: text) else {
                    throw Invalid(
                        message: "\(fileName): 'screen.dynamic_type': \(ScreenDefaults.unknownSize(text))")
                }
                defaults.dynamicTypeSize = size
            default:
                let near = nearestName(to: name, in: ScreenDefaults.keys)
                throw Invalid(
                    message: "\(fileName): unknown key 'screen.\(name)'"
                        + (near.map { " (did you mean 'screen.\($0)'?)" }
                            ?? " (known: \(ScreenDefaults.keys.joined(separator: ", ")))"))
            }
        }
        return defaults
    }

    /// Fills what the command line did not give.
    func apply(to options: inout Options) {
        if options.paths.isEmpty { options.paths = paths }
        if !options.given.contains("cpu_budget"), let cpuBudget { options.budget.cpuSeconds = cpuBudget }
        if !options.given.contains("memory_budget"), let memoryMiB {
            options.budget.setMemory(mib: memoryMiB)
        }
        if options.format == nil { options.format = reporter }
        if options.jobs == nil { options.jobs = jobs }
        if options.junit == nil { options.junit = junit }
        if !options.given.contains("seed"), let seed { options.seed = seed }
        if !options.given.contains("matrix") { options.matrix = matrix }
        if var audit = options.audit, let configured = self.audit {
            if !options.auditTypesGiven { audit.types = configured.types }
            audit.allow = configured.allow
            options.audit = audit
        }
    }

    private static func describe(_ value: LuaValue) -> String {
        switch value {
        case .nil: "nil"
        case .boolean(let flag): String(flag)
        case .integer(let number): String(number)
        case .number(let number): String(number)
        case .string(let text): "'\(text)'"
        case .array, .table, .record, .fields: "a table"
        case .object: "userdata"
        case .function: "a function"
        case .opaque(let name): name
        }
    }
}
