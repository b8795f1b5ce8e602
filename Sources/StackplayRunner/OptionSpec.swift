import Bindings
import StackModel

/// One command-line option, declared once in ``Options/table``: its spellings, what follows it,
/// the commands it means something for, its `--help` text, its `.stackplay.lua` key and how it is
/// read. The parser, the OPTIONS of `--help`, the did-you-mean, the scope errors, the config
/// reader's keys and the settings the command line gave (which the config leaves alone) are all
/// derived from the table; nothing else lists flags.
struct OptionSpec: Sendable {
    /// What follows the flag.
    enum Argument: Sendable, Equatable {
        /// `--list`: nothing (`--list=x` is a usage error).
        case none
        /// `--jobs N` or `--jobs=N`; the name is the one `--help` shows.
        case value(String)
        /// `--audit[=TYPES]`: a value only after `=`.
        case inlineValue(String)
    }

    /// Every spelling the parser accepts, in the order `--help` shows them: `--tag, --tags`.
    let spellings: [String]
    let argument: Argument
    /// The commands it belongs to; nil for `--help` and `--version`, which go with every command.
    let commands: Set<Options.Action>?
    /// The text `--help` shows beside it, its lines broken as they are shown.
    let help: String
    /// Its key in `.stackplay.lua`, if it has one.
    let config: ConfigKey?
    /// Writes the flag into the options.
    let parse: @Sendable (inout Options, Flag) throws(Options.UsageError) -> Void

    init(
        _ spellings: String..., value: String? = nil, inlineValue: String? = nil,
        commands: Set<Options.Action>?,
        config: ConfigKey? = nil,
        help: String, parse: @escaping @Sendable (inout Options, Flag) throws(Options.UsageError) -> Void
    ) {
        self.spellings = spellings
        self.argument =
            value.map(Argument.value) ?? inlineValue.map(Argument.inlineValue) ?? .none
        self.commands = commands
        self.config = config
        self.help = help
        self.parse = parse
    }

    /// A flag that takes a number (`--jobs N`), read from the command line and, under `config`,
    /// from `.stackplay.lua` by the same rule, so both check the same range and say it alike.
    init<Number: Sendable>(
        _ spellings: String..., value: String, commands: Set<Options.Action>, config: String? = nil,
        help: String, number rule: NumberRule<Number>,
        set: @escaping @Sendable (inout Options, Number) -> Void
    ) {
        self.spellings = spellings
        self.argument = .value(value)
        self.commands = commands
        self.help = help
        self.config = config.map { key in
            ConfigKey(key) { entry throws(Config.Invalid) in
                let number = try entry.number(rule)
                return { set(&$0, number) }
            }
        }
        self.parse = { options, flag throws(Options.UsageError) in set(&options, try flag.number(rule)) }
    }

    /// `--tag, --tags TAG[,TAG]`, `--audit[=TYPES]`: the label `--help` shows.
    var label: String {
        let names = spellings.joined(separator: ", ")
        switch argument {
        case .none: return names
        case .value(let name): return names + " " + name
        case .inlineValue(let name): return names + "[=" + name + "]"
        }
    }
}

/// A flag as the command line gave it: the spelling used (messages name it) and its value.
struct Flag {
    let spelling: String
    /// nil for a flag that takes none, and for `--audit` without `=`.
    let value: String?

    var text: String { value ?? "" }

    /// "--jobs needs a whole number from 1 to 1024, not '0'".
    func needs(_ expectation: String) -> Options.UsageError {
        Options.UsageError(message: "\(spelling) needs \(expectation), not '\(text)'")
    }

    /// The value read by `rule`, or a usage error naming the flag and the range.
    func number<Number>(_ rule: NumberRule<Number>) throws(Options.UsageError) -> Number {
        guard let number = rule.fromText(text) else { throw needs(rule.expectation) }
        return number
    }
}

/// A `.stackplay.lua` key of an option: read when the config is loaded (so a bad value stops the
/// run before anything starts) into what it does to the options.
struct ConfigKey: Sendable {
    typealias Apply = (inout Options) -> Void

    let name: String
    /// Whether the option given on the command line leaves this key unused. `audit` says no: its
    /// allow list applies to `--audit` whatever the flag names.
    let flagWins: Bool
    let read: @Sendable (ConfigEntry) throws(Config.Invalid) -> Apply

    init(
        _ name: String, flagWins: Bool = true,
        read: @escaping @Sendable (ConfigEntry) throws(Config.Invalid) -> Apply
    ) {
        self.name = name
        self.flagWins = flagWins
        self.read = read
    }
}

/// One key of a config file as read, with how messages name it:
/// `.stackplay.lua: 'jobs' must be a whole number from 1 to 1024, got 0`.
struct ConfigEntry {
    /// The config file as messages name it: `.stackplay.lua`, or the path `--config` gave.
    let file: String
    let key: String
    let value: ScriptValue

    /// "FILE: 'KEY' must be EXPECTED, got VALUE".
    func bad(_ expected: String) -> Config.Invalid {
        Config.Invalid(message: "\(file): '\(key)' must be \(expected), got \(Config.describe(value))")
    }

    /// "FILE: 'KEY': DETAIL", for a problem a reader of its own names.
    func problem(_ detail: String) -> Config.Invalid {
        Config.Invalid(message: "\(file): '\(key)': \(detail)")
    }

    func number<Number>(_ rule: NumberRule<Number>) throws(Config.Invalid) -> Number {
        guard let number = rule.fromLua(value) else { throw bad(rule.expectation) }
        return number
    }

    /// The fields of a table (`{}` reads as an empty list in Lua, and counts).
    func fields(_ expected: String) throws(Config.Invalid) -> [String: ScriptValue] {
        switch value {
        case .table(let fields): return fields
        case .array(let list) where list.isEmpty: return [:]
        default: throw bad(expected)
        }
    }

    func string(_ expected: String) throws(Config.Invalid) -> String {
        guard let text = value.string else { throw bad(expected) }
        return text
    }
}

/// What a number must be, said once for a flag's text and a config key's Lua value: each is
/// range-checked before it becomes an `Int` or a duration, so no value can trap.
struct NumberRule<Number>: Sendable {
    /// How messages say it: "a whole number from 1 to 1024".
    let expectation: String
    let fromText: @Sendable (String) -> Number?
    let fromLua: @Sendable (ScriptValue) -> Number?
}

extension NumberRule where Number == Double {
    /// Numbers in `range` (NaN never is); `aboveLowerBound` leaves out the bound itself.
    static func within(
        _ range: ClosedRange<Double>, aboveLowerBound: Bool = false, _ expectation: String
    ) -> Self {
        let accepts: @Sendable (Double) -> Double? = { number in
            range.contains(number) && !(aboveLowerBound && number == range.lowerBound) ? number : nil
        }
        return Self(
            expectation: expectation, fromText: { Double($0).flatMap(accepts) },
            fromLua: { $0.number.flatMap(accepts) })
    }

    /// The longest time a flag or key may give, in seconds (11.6 days): a wall-time limit is
    /// turned into milliseconds for poll(2), a CPU budget into a timer; beyond this they would not
    /// fit, and no test needs more.
    static let maximumSeconds = 1_000_000.0

    /// `--cpu-budget`, `--timeout`, `explore --time`: more than 0, at most ``maximumSeconds``.
    static let seconds = within(
        0...maximumSeconds, aboveLowerBound: true,
        "a positive number of seconds up to \(formatNumber(maximumSeconds))")

    /// `--memory-budget`, `memory_budget`: ``ScriptBudget/memoryMiBRange``.
    static let memoryMiB = within(ScriptBudget.memoryMiBRange, ScriptBudget.memoryMiBExpectation)

    /// `--tolerance`: a finite number >= 0.
    static let tolerance = within(0...Double.greatestFiniteMagnitude, "a number >= 0")

    /// `mutate --min-score P`: a percentage.
    static let percent = within(0...100, "a percentage from 0 to 100")
}

extension NumberRule where Number == Int {
    /// Whole numbers in `range`; from Lua an integer, or a float with an exact integer value.
    static func whole(_ range: ClosedRange<Int>, _ expectation: String? = nil) -> Self {
        Self(
            expectation: expectation ?? "a whole number from \(range.lowerBound) to \(range.upperBound)",
            fromText: { Int($0).flatMap { range.contains($0) ? $0 : nil } },
            fromLua: { value in
                let number: Int? =
                    switch value {
                    case .integer(let number): number
                    // Int(exactly:) is nil for NaN, infinities, fractions and 2^63: never a trap.
                    case .number(let number): Int(exactly: number)
                    default: nil
                    }
                return number.flatMap { range.contains($0) ? $0 : nil }
            })
    }
}
