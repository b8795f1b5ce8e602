import Bindings

/// The command line, parsed.
struct Options {
    enum Action { case run, help, version }

    var action = Action.run
    var paths: [String] = []
    var budget = LuaBudget.standard
    /// `--root DIR`: where `require` looks for scripts given as files.
    var root: String?

    struct UsageError: Error { let message: String }

    static let help = """
        USAGE: stackplay [options] FILE|DIR ...

        Runs each Lua scenario script in a fresh sandbox. A folder runs every *.lua file under it,
        sorted by path; files and folders starting with '.' are skipped.

        OPTIONS:
          --cpu-budget SECONDS   CPU time each script may use (default: 10)
          --memory-budget MIB    memory each script may use, in MiB (default: 256)
          --root DIR             where require() looks for modules of scripts given as files
                                 (default: the script's folder; for a folder argument, that folder)
          --version              print the version and exit
          -h, --help             print this help and exit

        Prints 'N passed, N failed' at the end. Exits 0 when all passed, 1 when any failed,
        64 for usage errors.
        """

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var rest = arguments[...]
        var onlyPaths = false
        while let argument = rest.popFirst() {
            if onlyPaths || !argument.hasPrefix("-") || argument == "-" {
                options.paths.append(argument)
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = rest.popFirst() else { throw UsageError(message: "\(name) needs a value") }
                return next
            }
            switch name {
            case "--": onlyPaths = true
            case "-h", "--help": options.action = .help
            case "--version": options.action = .version
            case "--cpu-budget": options.budget.cpuSeconds = try positive(try value(), for: name)
            case "--memory-budget": options.budget.memoryBytes = Int(try positive(try value(), for: name) * 1_048_576)
            case "--root": options.root = try value()
            default: throw UsageError(message: "unknown option '\(argument)'")
            }
        }
        if options.action == .run && options.paths.isEmpty {
            throw UsageError(message: "no scripts given")
        }
        return options
    }

    private static func positive(_ text: String, for name: String) throws(UsageError) -> Double {
        guard let number = Double(text), number > 0, number.isFinite else {
            throw UsageError(message: "\(name) needs a positive number, not '\(text)'")
        }
        return number
    }
}
