import Bindings
import StackModel

/// The project's `.stackplay.lua`: a Lua file that returns a table of defaults, read in the same
/// sandbox as scripts. Flags on the command line win over it.
struct Config {
    static let fileName = ".stackplay.lua"
    static let keys = ["paths", "screen", "cpu_budget", "memory_budget", "reporter", "jobs", "junit"]

    var paths: [String] = []
    var screen: (width: Double?, height: Double?) = (nil, nil)
    var cpuBudget: Double?
    var memoryMiB: Double?
    var reporter: Options.Format?
    var jobs: Int?
    var junit: String?

    struct Invalid: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// Reads `.stackplay.lua` from the current folder; an empty config when there is none.
    static func load() throws(Invalid) -> Config {
        guard Discovery.kind(of: fileName) == .file else { return Config() }
        let values: [LuaValue]
        do {
            let lua = try ScriptRunner(modules: []).makeState(root: ".")
            values = try lua.evaluate(file: fileName)
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
                guard case .table(let size) = value else { throw bad("a table { width =, height = }") }
                for (name, item) in size {
                    guard let number = item.number, number.isFinite, number >= 0 else {
                        throw Invalid(message: "\(fileName): 'screen.\(name)' must be a number >= 0")
                    }
                    switch name {
                    case "width": config.screen.width = number
                    case "height": config.screen.height = number
                    default:
                        throw Invalid(
                            message: "\(fileName): unknown key 'screen.\(name)' (known: width, height)")
                    }
                }
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
