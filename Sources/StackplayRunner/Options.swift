import Bindings
import StackModel

#if canImport(Glibc)
    import Glibc
#endif

/// The command line, parsed. Flags win over the project's `.stackplay.lua`.
struct Options {
    enum Action: Hashable, CaseIterable {
        case run, check, replay, render, view, merge, help, version, explore, mutate, codegen

        /// How messages name the command: `running scripts`, `'stackplay render'`.
        var commandName: String {
            switch self {
            case .run: "running scripts"
            case .check: "'stackplay check'"
            case .replay: "'stackplay replay'"
            case .render: "'stackplay render'"
            case .view: "'stackplay view'"
            case .merge: "'stackplay merge'"
            case .explore: "'stackplay explore'"
            case .mutate: "'stackplay mutate'"
            case .codegen: "'stackplay codegen'"
            case .help: "--help"
            case .version: "--version"
            }
        }

        /// The command's word (`render`), as `--help` titles its options.
        var word: String {
            switch self {
            case .run: "run"
            case .check: "check"
            case .replay: "replay"
            case .render: "render"
            case .view: "view"
            case .merge: "merge"
            case .explore: "explore"
            case .mutate: "mutate"
            case .codegen: "codegen"
            case .help: "help"
            case .version: "version"
            }
        }

        var order: Int {
            switch self {
            case .run: 0
            case .check: 1
            case .replay: 2
            case .render: 3
            case .view: 4
            case .merge: 5
            case .help: 6
            case .version: 7
            case .explore: 8
            case .mutate: 9
            case .codegen: 10
            }
        }
    }
    enum Format: String, CaseIterable { case human, tap, json, github }

    var action = Action.run
    var paths: [String] = []
    var budget = ScriptBudget.standard
    /// `--root DIR`: where `require` looks for modules of scripts given as files.
    var root: String?
    /// `--config FILE`: the config to read instead of the nearest `.stackplay.lua`.
    var configFile: String?
    /// `--filter PATTERN`, repeatable: a test runs when its `file: name` contains any of them.
    var filters: [String] = []
    /// `--tag NAME[,NAME]`, repeatable: only tests with any of these tags run.
    var tags: [String] = []
    /// `--exclude-tag NAME[,NAME]`, repeatable: tests with any of these tags do not run.
    var excludedTags: [String] = []
    var list = false
    /// `--verbose`: say on stderr how the run goes about it (a file whose tests re-run its top level).
    var verbose = false
    var jobs: Int?
    var shard: (index: Int, count: Int)?
    /// `--shard-timings FILE`: a previous run's JUnit file, whose durations balance the shards.
    var shardTimings: String?
    var format: Format?
    var junit: String?
    /// `--trace DIR`: write each test's trace there.
    var traceDirectory: String?
    /// `--golden DIR`: compare each test's trace with the one stored there.
    var goldenDirectory: String?
    /// `--update`: (re)record the golden traces instead of comparing.
    var update = false
    /// `--artifacts DIR`: an SVG of each failure and an HTML report of the run.
    var artifactsDirectory: String?
    /// `replay --tolerance X`.
    var tolerance: Double?
    /// `--seed N`: the run's seed for `math.random` (nil: the config's, else ``RunSeed/standard``).
    var seed: Int?
    /// `--seed random`: pick a seed and print it.
    var randomSeed = false
    /// `--repeat N`: run every test N times and fail those that differ between runs.
    var repeats = 1
    /// `--forbid-only`: a test left as `only(...)` fails the run (also when `ci`).
    var forbidOnly = false
    /// `--ci`, or a non-empty `CI` in the environment: golden traces are never written and
    /// `only(...)` is refused.
    var ci = false
    /// `--timeout SECONDS`: the wall time one test (or one file's loading) may take before its
    /// worker process is killed.
    var timeout: Double = 120
    /// `--matrix KEY=V1,V2` (repeatable): every test under every combination.
    var matrix = Matrix()
    /// `--mirror`: every test runs a second time in a mirrored world (`name [mirrored]`).
    var mirror = false
    /// `render --at N`, `render -o FILE`, `view -o FILE`.
    var at: Int?
    var outputFile: String?
    /// `--audit[=TYPES]`: audit every screen after each step; nil when off. The config's `audit`
    /// gives the types when the flag names none, and the allow-list.
    var audit: AuditOptions?
    /// Whether `--audit` named its types.
    var auditTypesGiven = false
    /// `explore --runs N --steps N --time SECONDS --out DIR` (nil: the explorer's defaults).
    var exploreRuns: Int?
    /// `--bail`: stop at the first failed test (what `mutate` runs each mutant with).
    var bail = false
    /// `mutate --mutants ID,...|SPEC,...`, `--min-score P`, `--json FILE`.
    var mutants: [String] = []
    /// `mutate --exclude-mutants ID,...|SPEC,...`.
    var excludedMutants: [String] = []
    /// `mutate --suggest DIR`: where the tests that would kill the survivors go.
    var suggestDirectory: String?
    var minimumScore: Double?
    /// `mutate --include-equivalent`: run the documented equivalent mutants too.
    var includeEquivalent = false
    /// `mutate --incremental FILE`: a previous report whose verdicts may be reused.
    var incrementalFile: String?
    /// `mutate --html FILE`, `merge --html FILE`: the mutation report as a page.
    var htmlFile: String?
    /// `--json=FILE`: the JSON report (mutate: Stryker's) goes to FILE; the other report stays on stdout.
    var jsonFile: String?
    var exploreSteps: Int?
    var exploreSeconds: Double?
    var exploreOut: String?
    /// `--watch`: run, then again on every save, only what the change affects (WatchCommand).
    var watch = false
    /// `--last-failed`: run only the tests that failed in the last run of the same paths (LastRun).
    var lastFailed = false
    /// Tests picked one by one: `file.lua:LINE`, `--last-failed` (TestPicks).
    var picks: TestPicks?
    /// `codegen --force`: write over an existing file; `codegen --name NAME`: the test's name.
    var force = false
    var testName: String?
    /// The command line as given (`--repeat` runs the tests again in another process with it).
    var arguments: [String] = []

    /// Whether the run records traces.
    var recordsTraces: Bool { traceDirectory != nil || goldenDirectory != nil || artifactsDirectory != nil }
    /// The config keys whose options the command line gave, so the config fills only the others
    /// (kept by the parser from ``table``).
    var given: Set<String> = []

    struct UsageError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// How many tests may run at once (`--jobs`, `jobs` in the config).
    static let jobRange = 1...1024

    /// `stackplay --help`: the usage and commands, the OPTIONS derived from ``table``, then the
    /// config, Bazel and exit codes.
    static let help = helpHead + "\n\n" + optionsHelp() + "\n" + helpTail

    private static let helpHead = """
        USAGE: stackplay [options] FILE|DIR ...
               stackplay [options] FILE.lua:LINE ...   (the test at that line)
               stackplay check FILE|DIR ...
               stackplay replay [--tolerance X] TRACE ...
               stackplay render TRACE [--at EVENT] [-o FILE]
               stackplay view TRACE ... [-o FILE.html]
               stackplay merge REPORT.json ... [--junit FILE] [--json] [--artifacts DIR] [--html FILE]
               stackplay explore FILE|DIR ... [--seed N] [--runs N] [--steps N] [--time SECONDS]
                                 [--out DIR] [--jobs N] [--artifacts DIR]
               stackplay mutate FILE|DIR ... [--mutants ID,...] [--min-score P] [--json FILE]
                                [--junit FILE] [--suggest DIR] [--jobs N] [--shard K/N]
                                [--incremental FILE] [--html FILE] [--artifacts DIR]
                                [--include-equivalent] [selection flags of a run]
               stackplay codegen TRACE [-o FILE] [--force] [--name NAME]
               stackplay studio [FILE|DIR ...] [--port N] [--address ADDR]

        Runs Lua scenario scripts against headless models of the card-stack components. Each
        test(name, fn) of a script runs from a fresh start in its own sandbox; a script without
        tests is one test. A folder runs every *.lua file under it, sorted by path; names that
        start with '.' are skipped.

        COMMANDS:
          check                  parse the scripts and report syntax errors, calls to API
                                 names that do not exist and option names a call does not
                                 take, without running any gesture; reads helpers/ and the
                                 modules the scripts require
          replay                 build the screen of each trace, feed it the recorded events and
                                 check every recorded frame (--tolerance X, default 1e-9); the
                                 first difference names the event, the card and the field
          explore                run the explorations the files declare (explore(name, { setup =,
                                 invariants =, actions = })): random gesture sequences checked
                                 after every step; a failure is shrunk and written to
                                 DIR/<exploration>.lua (--out, default explore-out) with its
                                 trace; --runs N (default 100) runs of --steps N (default 100),
                                 within --time SECONDS; --jobs N explorations at once
          render                 write an SVG of a trace's frame after event EVENT (default: the
                                 last) to FILE (default: stdout)
          view                   write the trace viewer, one HTML page holding the traces (a
                                 timeline, the frame at each event, fingers, state), to FILE
                                 (default: stdout)
          merge                  merge the --json reports of shards into one report (human by
                                 default; --json, --junit FILE, --artifacts DIR as for a run);
                                 mutate's --json reports merge into one mutation report
          mutate                 how good is the suite: run it once unmutated (it must pass),
                                 then against each behavioural mutant of the models (a seed's
                                 number moved, a gate opened, a direction turned; docs/mutate.md),
                                 each in its own process, stopping at its first failed test;
                                 report each mutant killed (by which test) or survived, and the
                                 mutation score
          codegen                write the Lua test a person would write from a trace (a --trace
                                 output, an explore reproducer's trace, screen:trace()): the
                                 screen and components as made, drag/tap/scroll/settle calls,
                                 expectations of the final state; it passes on the trace's model
          studio                 serve a local page (127.0.0.1, a token in its URL): the tests
                                 with their results and traces, re-run on save; a live screen
                                 of the model to drag, tap and Esc; Record, which writes what
                                 you do as a Lua scenario (docs/studio.md)
        """

    private static let helpTail = """
        A '.stackplay.lua' (the nearest from the paths given, or the current folder, upward to a
        folder holding .git) may return defaults: paths, screen (width,
        height, layout_direction, reduce_motion, dynamic_type: every screen's defaults),
        cpu_budget, memory_budget, reporter ('human', 'tap', 'json', 'github'), jobs, junit, seed,
        audit ({ types = {...}, allow = { { type =, element = } } }: what --audit checks),
        matrix ({ "layout_direction=ltr,rtl", ... }: as --matrix).
        Flags win over it. NO_COLOR turns colour off; colour is used only on a terminal.

        Under Bazel (TEST_TOTAL_SHARDS, TEST_SHARD_INDEX, XML_OUTPUT_FILE,
        TEST_UNDECLARED_OUTPUTS_DIR, ...) a run shards, writes JUnit and artifacts where Bazel
        says; --shard, --junit and --artifacts win over the variables.

        Prints 'N passed, N failed' at the end. Exits 0 when all passed, 1 when any failed,
        64 for usage errors, 130 or 143 when SIGINT or SIGTERM ended the run (the results so
        far are reported).
        """

    /// The OPTIONS of `--help`, from ``table``: those of a run (and of every command) first, then
    /// those of each other command under its name (`RENDER OPTIONS:`), by the first command they
    /// go with. A label longer than the column gets a line of its own.
    static func optionsHelp() -> String {
        var sections: [(title: String, specs: [OptionSpec])] = [("OPTIONS:", [])]
        for spec in table {
            var title = "OPTIONS:"
            if let commands = spec.commands, !commands.contains(.run),
                let first = commands.min(by: { $0.order < $1.order })
            {
                title = "\(first.word.uppercased()) OPTIONS:"
            }
            if let index = sections.firstIndex(where: { $0.title == title }) {
                sections[index].specs.append(spec)
            } else {
                sections.append((title, [spec]))
            }
        }
        let column = 23
        var lines: [String] = []
        for section in sections {
            if !lines.isEmpty { lines.append("") }
            lines.append(section.title)
            for spec in section.specs {
                let text = spec.help.split(separator: "\n", omittingEmptySubsequences: false)
                let label = "  " + spec.label
                var first = text[...]
                if spec.label.count > column - 2 {
                    lines.append(label)
                } else {
                    lines.append(label + String(repeating: " ", count: column + 2 - label.count) + text[0])
                    first = text.dropFirst()
                }
                lines += first.map { String(repeating: " ", count: column + 2) + $0 }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The option each spelling names.
    static let specs: [String: OptionSpec] = Dictionary(
        table.flatMap { spec in spec.spellings.map { ($0, spec) } }, uniquingKeysWith: { first, _ in first })

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        options.arguments = arguments
        if let ci = getenv("CI"), ci.pointee != 0 { options.ci = true }
        var rest = arguments[...]
        switch rest.first {
        case "check": options.action = .check
        case "replay": options.action = .replay
        case "render": options.action = .render
        case "view": options.action = .view
        case "merge": options.action = .merge
        case "explore": options.action = .explore
        case "mutate": options.action = .mutate
        case "codegen": options.action = .codegen
        default: break
        }
        if options.action != .run { rest = rest.dropFirst() }
        var onlyPaths = false
        var flags: [String] = []
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
            if name == "--" {
                onlyPaths = true
                continue
            }
            guard let spec = specs[name] else {
                var message = "unknown option '\(argument)'"
                if let near = nearestOption(name) { message += " (did you mean '\(near)'?)" }
                throw UsageError(message: message)
            }
            let value: String?
            switch spec.argument {
            case .none:
                if let inlineValue {
                    throw UsageError(message: "\(name) takes no value, not '\(inlineValue)'")
                }
                value = nil
            case .value:
                guard let given = inlineValue ?? rest.popFirst() else {
                    throw UsageError(message: "\(name) needs a value")
                }
                value = given
            case .inlineValue(let label):
                value = inlineValue
                // `--json out.json`: a report's file follows '=', in every command; a path after
                // the flag is a script (merge's are reports: it reads them).
                if inlineValue == nil, options.action != .merge, let next = rest.first,
                    label == "FILE", next.hasSuffix(".json")
                {
                    throw UsageError(
                        message: "\(name) writes to stdout; to write \(next), give \(name)=\(next)")
                }
            }
            try spec.parse(&options, Flag(spelling: name, value: value))
            if let key = spec.config, key.flagWins { options.given.insert(key.name) }
            if spec.commands != nil { flags.append(name) }
        }
        if options.action != .help && options.action != .version {
            for flag in flags { try Self.checkScope(flag, for: options.action) }
        }
        return options
    }

    /// The commands each spelling means something for; a flag given to another command is a
    /// usage error, never silently ignored.
    static let scopes: [String: Set<Action>] = specs.compactMapValues(\.commands)

    /// `'--at' goes with 'stackplay render', not with running scripts`.
    static func checkScope(_ flag: String, for action: Action) throws(UsageError) {
        guard let scope = scopes[flag], !scope.contains(action) else { return }
        let owners = scope.sorted { $0.order < $1.order }.map(\.commandName)
        throw UsageError(
            message:
                "'\(flag)' goes with \(owners.joined(separator: " and ")), not with \(action.commandName)"
                + (scope.contains(.run) && action != .run
                    ? " (did you mean 'stackplay \(flag) ... FILE|DIR'?)" : ""))
    }

    /// The long spellings, in the table's order, that a mistyped flag is compared with.
    static let longSpellings = table.flatMap(\.spellings).filter { $0.hasPrefix("--") }

    /// The option `name` was most likely meant to be: one it begins, one that begins as it does,
    /// else the nearest by edit distance.
    private static func nearestOption(_ name: String) -> String? {
        let known = longSpellings
        return known.first { $0.hasPrefix(name) && name.count > 3 }
            ?? known.first { $0.dropFirst(2).hasPrefix(name.drop { $0 == "-" }.prefix(4)) && name.count > 3 }
            ?? nearestName(to: name, in: known)
    }
}

extension Discovery.Missing: CustomStringConvertible {
    /// The message alone, never Swift's `Missing(message: ...)`.
    var description: String { message }
}
