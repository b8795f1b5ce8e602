import LuaRuntime
import Bindings
import StackModel

#if canImport(Glibc)
    import Glibc
#endif

/// The command line, parsed. Flags win over the project's `.stackplay.lua`.
struct Options {
    enum Action: Hashable {
        case run, check, replay, render, view, merge, help, version, explore

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
            case .help: "--help"
            case .version: "--version"
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
            }
        }
    }
    enum Format: String { case human, tap, json }

    var action = Action.run
    var paths: [String] = []
    var budget = LuaBudget.standard
    /// `--root DIR`: where `require` looks for modules of scripts given as files.
    var root: String?
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
    var exploreSteps: Int?
    var exploreSeconds: Double?
    var exploreOut: String?

    /// Whether the run records traces.
    var recordsTraces: Bool { traceDirectory != nil || goldenDirectory != nil || artifactsDirectory != nil }
    /// Which settings the command line gave, so the config fills only the others.
    var given: Set<String> = []

    struct UsageError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// How many tests may run at once (`--jobs`, `jobs` in the config).
    static let jobRange = 1...1024

    static let help = """
        USAGE: stackplay [options] FILE|DIR ...
               stackplay check FILE|DIR ...
               stackplay replay [--tolerance X] TRACE ...
               stackplay render TRACE [--at EVENT] [-o FILE]
               stackplay view TRACE ... [-o FILE.html]
               stackplay merge REPORT.json ... [--junit FILE] [--json] [--artifacts DIR]
               stackplay explore FILE|DIR ... [--seed N] [--runs N] [--steps N] [--time SECONDS]
                                 [--out DIR] [--jobs N] [--artifacts DIR]

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
                                 default; --json, --junit FILE, --artifacts DIR as for a run)

        OPTIONS:
          --filter PATTERN       run only tests whose 'file: name' contains PATTERN; given
                                 more than once, tests that match any of them
          --tag TAG[,TAG]        run only tests tagged with any of these
                                 (test(name, { tags = { "rtl" } }, fn)); repeatable
          --exclude-tag TAG[,TAG]
                                 do not run tests tagged with any of these; repeatable; wins
                                 over --tag
          --list                 list the tests that would run, and exit
          --verbose              say on stderr which files re-run their top level for each
                                 test (one that makes a screen or draws random numbers there)
          --jobs N               run N tests at once, each in its own Lua state
                                 (default: the number of cores)
          --shard K/N            run the K-th of N deterministic shards (1 <= K <= N), so that N
                                 CI machines together run every test exactly once
          --shard-timings FILE   balance the shards by the test durations in FILE, a previous
                                 run's JUnit report (tests it lacks count as its median)
          --tap                  report as TAP version 13 on stdout
          --json                 report as JSON on stdout
          --junit FILE           also write a JUnit XML report to FILE
          --trace DIR            write each test's trace (JSON Lines, docs/traces.md) to DIR
          --golden DIR           compare each test's trace with the one in DIR; a missing one is
                                 recorded; with --update, all are recorded again
          --update               record golden traces again: those of --golden, and those
                                 that scripts compare with to_match_trace
          --tolerance X          golden traces (--golden, to_match_trace) and replay accept
                                 numbers within X (default: exact for golden traces, 1e-9 for
                                 replay)
          --artifacts DIR        write an SVG of each failed test's last frame and report.html,
                                 the trace viewer of the run (one self-contained page), to DIR
          --cpu-budget SECONDS   CPU time each test may use (default: 10)
          --memory-budget MIB    memory each test may use, in MiB (default: 256)
          --root DIR             where require() looks for modules of scripts given as files
                                 (default: the script's folder; for a folder argument, that folder)
          --seed N|random        the run's seed for math.random (default: 0); each test gets its
                                 own seed from it and its name; 'random' picks one and prints it
          --repeat N             run every test N times, each from a fresh start, and fail a test
                                 whose outcome, output or trace differs between runs
          --forbid-only          fail the run when a test is left as only(...)
          --matrix KEY=V1,V2     run every test under every combination of screen defaults
                                 (repeatable): layout_direction=ltr,rtl, reduce_motion=on,off,
                                 dynamic_type=all|large,AX5,..., width=N,..., height=N,...,
                                 device=iphone-se,iphone-15,iphone-15-pro-max,ipad; a screen's own
                                 settings win; reports name the variant: 'name [rtl, AX5]'
          --mirror               run every test a second time in a mirrored world: the other
                                 layout direction, every x the script gives or reads mirrored
                                 across the screen's centre line ('name [mirrored]'); it fails
                                 where a frame is not the mirror image of the unmirrored run's
          --ci                   as in CI (also when the CI variable is set and not empty):
                                 a missing golden trace fails instead of being recorded, and
                                 only(...) fails the run
          --audit[=TYPES]        audit every screen's accessibility after each gesture, settle
                                 and setting change, and fail a test at the first step with an
                                 issue; TYPES: hit_region, element_detection,
                                 sufficient_description, dynamic_type, trait, action (default:
                                 all; contrast and text_clipped are not applicable headlessly)
          --timeout SECONDS      wall time one test may take before it is stopped and reported
                                 as timed out (default: 120); a test that crashes is reported as
                                 crashed and the run goes on
          --version              print the version and exit
          -h, --help             print this help and exit

        A '.stackplay.lua' in the current folder may return defaults: paths, screen (width,
        height, layout_direction, reduce_motion, dynamic_type: every screen's defaults),
        cpu_budget, memory_budget, reporter ('human', 'tap', 'json'), jobs, junit, seed,
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

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        if let ci = getenv("CI"), ci.pointee != 0 { options.ci = true }
        var rest = arguments[...]
        switch rest.first {
        case "check": options.action = .check
        case "replay": options.action = .replay
        case "render": options.action = .render
        case "view": options.action = .view
        case "merge": options.action = .merge
        case "explore": options.action = .explore
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
            if Self.scopes[name] != nil { flags.append(name) }
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = rest.popFirst() else { throw UsageError(message: "\(name) needs a value") }
                return next
            }
            switch name {
            case "--": onlyPaths = true
            case "-h", "--help": options.action = .help
            case "--version": options.action = .version
            case "--cpu-budget":
                options.budget.cpuSeconds = try positive(try value(), for: name)
                options.given.insert("cpu_budget")
            case "--memory-budget":
                let text = try value()
                guard let mib = Double(text), LuaBudget.isValid(memoryMiB: mib) else {
                    throw UsageError(
                        message: "\(name) needs \(LuaBudget.memoryMiBExpectation), not '\(text)'")
                }
                options.budget.setMemory(mib: mib)
                options.given.insert("memory_budget")
            case "--root": options.root = try value()
            case "--seed":
                let text = try value()
                if text == "random" {
                    options.randomSeed = true
                } else {
                    guard let seed = Int(text), seed >= 0 else {
                        throw UsageError(message: "--seed needs a whole number >= 0 or 'random', not '\(text)'")
                    }
                    options.seed = seed
                }
                options.given.insert("seed")
            case "--repeat":
                let text = try value()
                guard let count = Int(text), count >= 1, count <= 1_000_000 else {
                    throw UsageError(message: "--repeat needs a whole number from 1 to 1000000, not '\(text)'")
                }
                options.repeats = count
            case "--forbid-only": options.forbidOnly = true
            case "--matrix":
                let text = try value()
                do { try options.matrix.add(text) } catch { throw UsageError(message: "--matrix \(error.message)") }
                options.given.insert("matrix")
            case "--mirror": options.mirror = true
            case "--ci": options.ci = true
            case "--timeout":
                options.timeout = try positive(try value(), for: name)
            case "--filter": options.filters.append(try value())
            case "--tag", "--tags": options.tags += try tagList(try value(), for: name)
            case "--exclude-tag", "--exclude-tags":
                options.excludedTags += try tagList(try value(), for: name)
            case "--list": options.list = true
            case "--verbose": options.verbose = true
            case "--jobs":
                let text = try value()
                guard let jobs = Int(text), jobRange.contains(jobs) else {
                    throw UsageError(
                        message: "--jobs needs a whole number from 1 to \(jobRange.upperBound), not '\(text)'"
                    )
                }
                options.jobs = jobs
            case "--shard": options.shard = try shard(try value())
            case "--shard-timings": options.shardTimings = try value()
            case "--tap": options.format = .tap
            case "--json": options.format = .json
            case "--junit": options.junit = try value()
            case "--trace": options.traceDirectory = try value()
            case "--golden": options.goldenDirectory = try value()
            case "--update": options.update = true
            case "--artifacts": options.artifactsDirectory = try value()
            case "--tolerance":
                let text = try value()
                guard let number = Double(text), number >= 0, number.isFinite else {
                    throw UsageError(message: "--tolerance needs a number >= 0, not '\(text)'")
                }
                options.tolerance = number
            case "--at":
                let text = try value()
                guard let index = Int(text), index >= 0 else {
                    throw UsageError(message: "--at needs an event index >= 0, not '\(text)'")
                }
                options.at = index
            case "-o", "--output": options.outputFile = try value()
            case "--audit":
                options.audit = AuditOptions()
                if let inlineValue {
                    let names = inlineValue.split(separator: ",", omittingEmptySubsequences: false)
                        .map(String.init)
                    switch AuditMethods.types(names) {
                    case .success(let types) where !types.isEmpty:
                        options.audit?.types = types
                        options.auditTypesGiven = true
                    case .success:
                        throw UsageError(message: "--audit= needs audit types, such as hit_region,trait")
                    case .failure(let error): throw UsageError(message: "--audit: \(error.message)")
                    }
                }
            case "--runs", "--steps":
                let text = try value()
                guard let count = Int(text), count >= 1, count <= 100_000_000 else {
                    throw UsageError(message: "\(name) needs a whole number from 1 to 100000000, not '\(text)'")
                }
                if name == "--runs" { options.exploreRuns = count } else { options.exploreSteps = count }
            case "--time": options.exploreSeconds = try positive(try value(), for: name)
            case "--out": options.exploreOut = try value()
            default:
                var message = "unknown option '\(argument)'"
                let known = [
                    "--filter", "--list", "--jobs", "--shard", "--tap", "--json", "--junit", "--cpu-budget",
                    "--memory-budget", "--root", "--version", "--help", "--trace", "--golden", "--update",
                    "--ci",
                    "--artifacts",
                    "--tolerance", "--at", "--output", "--seed", "--repeat", "--forbid-only", "--timeout",
                    "--tag", "--exclude-tag", "--matrix", "--shard-timings", "--mirror", "--audit",
                    "--runs", "--steps", "--time", "--out", "--verbose",
                ]
                if let near = nearestOption(name, known) { message += " (did you mean '\(near)'?)" }
                throw UsageError(message: message)
            }
        }
        if options.action != .help && options.action != .version {
            for flag in flags { try Self.checkScope(flag, for: options.action) }
        }
        return options
    }

    /// The commands each flag means something for; a flag given to another command is a usage
    /// error, never silently ignored.
    static let scopes: [String: Set<Action>] = {
        var scopes: [String: Set<Action>] = [:]
        for flag in [
            "--filter", "--list", "--jobs", "--shard", "--tap", "--json", "--junit", "--cpu-budget",
            "--memory-budget", "--trace", "--golden", "--update", "--ci", "--artifacts", "--seed",
            "--repeat", "--forbid-only", "--timeout", "--tag", "--tags", "--exclude-tag", "--exclude-tags",
            "--matrix", "--shard-timings", "--mirror", "--audit", "--verbose",
        ] {
            scopes[flag] = [.run]
        }
        // merge writes the reports a run writes.
        for flag in ["--json", "--junit", "--artifacts"] { scopes[flag] = [.run, .merge] }
        scopes["--root"] = [.run, .check, .explore]
        // `stackplay explore`: its own flags, and the run's that mean the same there.
        for flag in ["--runs", "--steps", "--time", "--out"] { scopes[flag] = [.explore] }
        for flag in ["--seed", "--jobs", "--artifacts", "--memory-budget"] { scopes[flag]?.insert(.explore) }
        scopes["--tolerance"] = [.run, .replay]
        scopes["--at"] = [.render]
        for flag in ["-o", "--output"] { scopes[flag] = [.render, .view] }
        return scopes
    }()

    /// `'--at' goes with 'stackplay render', not with running scripts`.
    static func checkScope(_ flag: String, for action: Action) throws(UsageError) {
        guard let scope = scopes[flag], !scope.contains(action) else { return }
        let owners = scope.sorted { $0.order < $1.order }.map(\.commandName)
        throw UsageError(
            message: "'\(flag)' goes with \(owners.joined(separator: " and ")), not with \(action.commandName)"
                + (scope.contains(.run) && action != .run
                    ? " (did you mean 'stackplay \(flag) ... FILE|DIR'?)" : ""))
    }

    private static func positive(_ text: String, for name: String) throws(UsageError) -> Double {
        guard let number = Double(text), number > 0, number.isFinite else {
            throw UsageError(message: "\(name) needs a positive number, not '\(text)'")
        }
        return number
    }

    /// `rtl,smoke` → `["rtl", "smoke"]`; an empty name is a usage error.
    private static func tagList(_ text: String, for name: String) throws(UsageError) -> [String] {
        let tags = text.split(separator: ",", omittingEmptySubsequences: false).map {
            String($0.trimmingPrefix(" ").reversed().drop { $0 == " " }.reversed())
        }
        guard !tags.contains(where: \.isEmpty) else {
            throw UsageError(message: "\(name) needs tag names separated by commas, not '\(text)'")
        }
        return tags
    }

    private static func shard(_ text: String) throws(UsageError) -> (Int, Int) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, k >= 1, k <= n else {
            throw UsageError(message: "--shard needs K/N with 1 <= K <= N, not '\(text)'")
        }
        return (k, n)
    }

    private static func nearestOption(_ name: String, _ known: [String]) -> String? {
        known.first { $0.hasPrefix(name) && name.count > 3 }
            ?? known.first { $0.dropFirst(2).hasPrefix(name.drop { $0 == "-" }.prefix(4)) && name.count > 3 }
            ?? nearestName(to: name, in: known)
    }
}

extension Discovery.Missing: CustomStringConvertible {
    /// The message alone, never Swift's `Missing(message: ...)`.
    var description: String { message }
}
