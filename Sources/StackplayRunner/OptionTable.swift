import Bindings
import StackModel

extension Options {
    /// Every option, each declared once, in the order `--help` lists them (see ``OptionSpec``).
    /// Adding a flag is one entry here plus the field it writes and the code that uses it.
    static let table: [OptionSpec] = [
        OptionSpec(
            "--filter", value: "PATTERN", commands: [.run, .mutate],
            help: """
                run only tests whose 'file: name' contains PATTERN; given
                more than once, tests that match any of them
                """
        ) { options, flag in options.filters.append(flag.text) },
        OptionSpec(
            "--tag", "--tags", value: "TAG[,TAG]", commands: [.run, .mutate],
            help: """
                run only tests tagged with any of these
                (test(name, { tags = { "rtl" } }, fn)); repeatable
                """
        ) { options, flag throws(UsageError) in options.tags += try tagList(flag) },
        OptionSpec(
            "--exclude-tag", "--exclude-tags", value: "TAG[,TAG]", commands: [.run, .mutate],
            help: """
                do not run tests tagged with any of these; repeatable; wins
                over --tag
                """
        ) { options, flag throws(UsageError) in options.excludedTags += try tagList(flag) },
        OptionSpec(
            "--list", commands: [.run],
            help: """
                list the tests that would run, and exit: 'name [rtl, AX5]
                (tags: a, b)', each variant in brackets, its tags apart;
                with --json, one JSON document of the tests
                """
        ) { options, _ in options.list = true },
        OptionSpec(
            "--verbose", commands: [.run],
            help: """
                say on stderr which files re-run their top level for each
                test (one that makes a screen or draws random numbers there)
                """
        ) { options, _ in options.verbose = true },
        OptionSpec(
            "--jobs", value: "N", commands: [.run, .explore, .mutate], config: "jobs",
            help: """
                run N tests at once, each in its own Lua state
                (default: the number of cores)
                """,
            number: .whole(jobRange)
        ) { options, jobs in options.jobs = jobs },
        OptionSpec(
            "--shard", value: "K/N", commands: [.run, .mutate],
            help: """
                run the K-th of N deterministic shards (1 <= K <= N), so that N
                CI machines together run every test (mutate: every mutant)
                exactly once
                """
        ) { options, flag throws(UsageError) in options.shard = try shard(flag) },
        OptionSpec(
            "--shard-timings", value: "FILE", commands: [.run],
            help: """
                balance the shards by the test durations in FILE, a previous
                run's JUnit report (tests it lacks count as its median)
                """
        ) { options, flag in options.shardTimings = flag.text },
        OptionSpec(
            "--tap", commands: [.run], help: "report as TAP version 13 on stdout"
        ) { options, _ in options.format = .tap },
        OptionSpec(
            "--json", inlineValue: "FILE", commands: [.run, .merge, .mutate],
            help: """
                report as JSON on stdout instead; with =FILE, write it to FILE
                and keep the other report on stdout (mutate: Stryker's
                mutation-testing-report-schema, version 2); an existing FILE
                must be a report of that kind stackplay wrote
                """
        ) { options, flag throws(UsageError) in
            if let file = flag.value {
                guard !file.isEmpty else { throw flag.needs("a file name after '='") }
                options.jsonFile = file
            } else {
                options.format = .json
            }
        },
        OptionSpec(
            "--reporter", value: "NAME", commands: [.run, .merge],
            help: """
                report as NAME: human (the default), tap, json, or github
                (GitHub Actions annotations, each failure on its failing line)
                """
        ) { options, flag throws(UsageError) in options.format = try reporter(flag) },
        OptionSpec(
            "--junit", value: "FILE", commands: [.run, .merge, .mutate],
            config: ConfigKey("junit") { entry throws(Config.Invalid) in
                let path = try entry.string("a path")
                // Bazel's XML_OUTPUT_FILE, applied before the config, wins over it too.
                return { $0.junit = $0.junit ?? path }
            },
            help: """
                also write a JUnit XML report to FILE (an existing FILE must be
                a JUnit report stackplay wrote: a script is never overwritten)
                """
        ) { options, flag in options.junit = flag.text },
        OptionSpec(
            "--trace", value: "DIR", commands: [.run],
            help: "write each test's trace (JSON Lines, docs/traces.md) to DIR"
        ) { options, flag in options.traceDirectory = flag.text },
        OptionSpec(
            "--golden", value: "DIR", commands: [.run],
            help: """
                compare each test's trace with the one in DIR; a missing one is
                recorded; with --update, all are recorded again
                """
        ) { options, flag in options.goldenDirectory = flag.text },
        OptionSpec(
            "--update", commands: [.run],
            help: """
                record golden traces again: those of --golden, and those
                that scripts compare with to_match_trace
                """
        ) { options, _ in options.update = true },
        OptionSpec(
            "--tolerance", value: "X", commands: [.run, .replay],
            help: """
                golden traces (--golden, to_match_trace) and replay accept
                numbers within X (default: exact for golden traces, 1e-9 for
                replay)
                """,
            number: .tolerance
        ) { options, tolerance in options.tolerance = tolerance },
        OptionSpec(
            "--artifacts", value: "DIR", commands: [.run, .merge, .explore, .mutate],
            help: """
                write an SVG of each failed test's last frame and report.html,
                the trace viewer of the run (one self-contained page), to DIR
                (mutate: mutation.html, and each killed mutant's trace viewer)
                """
        ) { options, flag in options.artifactsDirectory = flag.text },
        OptionSpec(
            "--cpu-budget", value: "SECONDS", commands: [.run, .mutate], config: "cpu_budget",
            help: "CPU time each test may use (default: 10)", number: .seconds
        ) { options, seconds in options.budget.cpuSeconds = seconds },
        OptionSpec(
            "--memory-budget", value: "MIB", commands: [.run, .explore, .mutate], config: "memory_budget",
            help: "memory each test may use, in MiB (default: 256)", number: .memoryMiB
        ) { options, mib in options.budget.setMemory(mib: mib) },
        OptionSpec(
            "--root", value: "DIR", commands: [.run, .check, .explore, .mutate],
            help: """
                where require() looks for modules of scripts given as files
                (default: the script's folder; for a folder argument, that folder)
                """
        ) { options, flag in options.root = flag.text },
        OptionSpec(
            "--config", value: "FILE", commands: [.run, .check, .explore, .mutate],
            help: """
                read the defaults from FILE instead of the nearest .stackplay.lua
                (from the paths upward, below); a missing or unreadable FILE is
                a usage error
                """
        ) { options, flag in options.configFile = flag.text },
        OptionSpec(
            "--seed", value: "N|random", commands: [.run, .explore, .mutate],
            config: ConfigKey("seed") { entry throws(Config.Invalid) in
                let seed = try entry.number(seedRule)
                return { $0.seed = seed }
            },
            help: """
                the run's seed for math.random (default: 0); each test gets its
                own seed from it and its name; 'random' picks one and prints it
                """
        ) { options, flag throws(UsageError) in
            if flag.text == "random" {
                options.randomSeed = true
            } else {
                guard let seed = seedRule.fromText(flag.text) else {
                    throw flag.needs("a whole number >= 0 or 'random'")
                }
                options.seed = seed
            }
        },
        OptionSpec(
            "--repeat", value: "N", commands: [.run],
            help: """
                run every test N times, each from a fresh start, then once more
                in another process, and fail a test whose outcome, output or
                trace differs between runs
                """,
            number: .whole(1...1_000_000)
        ) { options, count in options.repeats = count },
        OptionSpec(
            "--forbid-only", commands: [.run], help: "fail the run when a test is left as only(...)"
        ) { options, _ in options.forbidOnly = true },
        OptionSpec(
            "--matrix", value: "KEY=V1,V2", commands: [.run, .mutate],
            config: ConfigKey("matrix") { entry throws(Config.Invalid) in
                let matrix = try Config.matrix(entry)
                return { $0.matrix = matrix }
            },
            help: """
                run every test under every combination of screen defaults
                (repeatable): layout_direction=ltr,rtl, reduce_motion=on,off,
                dynamic_type=all|large,AX5,..., width=N,..., height=N,...,
                device=iphone-se,iphone-15,iphone-15-pro-max,ipad; a screen's own
                settings win; reports name the variant: 'name [rtl, AX5]'; a
                test whose screens all set a key runs once for it, the others
                skipped ('skipped: the test sets layout_direction itself')
                """
        ) { options, flag throws(UsageError) in
            do throws(VariantError) { try options.matrix.add(flag.text) } catch {
                throw UsageError(message: "--matrix \(error.message)")
            }
        },
        OptionSpec(
            "--mirror", commands: [.run, .mutate],
            help: """
                run every test a second time in a mirrored world: the other
                layout direction, every x the script gives or reads mirrored
                across the screen's centre line ('name [mirrored]'); it fails
                where a frame is not the mirror image of the unmirrored run's
                """
        ) { options, _ in options.mirror = true },
        OptionSpec(
            "--ci", commands: [.run],
            help: """
                as in CI (also when the CI variable is set and not empty):
                a missing golden trace fails instead of being recorded, and
                only(...) fails the run
                """
        ) { options, _ in options.ci = true },
        OptionSpec(
            "--audit", inlineValue: "TYPES", commands: [.run, .mutate],
            // The config's types apply when the flag names none; its allow list always does.
            config: ConfigKey("audit", flagWins: false) { entry throws(Config.Invalid) in
                let configured = try Config.audit(entry)
                return { options in
                    guard var audit = options.audit else { return }
                    if !options.auditTypesGiven { audit.types = configured.types }
                    audit.allow = configured.allow
                    options.audit = audit
                }
            },
            help: """
                audit every screen's accessibility after each gesture, settle
                and setting change, and fail a test at the first step with an
                issue; TYPES: hit_region, element_detection,
                sufficient_description, dynamic_type, trait, action (default:
                all; contrast and text_clipped are not applicable headlessly);
                the seed components' own findings are reported as known and
                fail nothing, unless TYPES holds 'strict'
                """
        ) { options, flag throws(UsageError) in
            // The seeds' own findings are known issues, listed and not failing, unless strict.
            options.audit = AuditOptions(known: AuditAllowance.seedFindings)
            guard let text = flag.value else { return }
            var names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if names.contains(strictAudit) {
                options.audit?.known = []
                names.removeAll { $0 == strictAudit }
                if names.isEmpty { return }
            }
            switch AuditMethods.types(names) {
            case .success(let types) where !types.isEmpty:
                options.audit?.types = types
                options.auditTypesGiven = true
            case .success: throw UsageError(message: "--audit= needs audit types, such as hit_region,trait")
            case .failure(let error): throw UsageError(message: "--audit: \(error.message)")
            }
        },
        OptionSpec(
            "--timeout", value: "SECONDS", commands: [.run, .mutate],
            help: """
                wall time one test may take before it is stopped and reported
                as timed out (default: 120); a test that crashes is reported as
                crashed and the run goes on
                """,
            number: .seconds
        ) { options, seconds in options.timeout = seconds },
        OptionSpec("--version", commands: nil, help: "print the version and exit") { options, _ in
            options.action = .version
        },
        OptionSpec("-h", "--help", commands: nil, help: "print this help and exit") { options, _ in
            options.action = .help
        },
        OptionSpec(
            "--at", value: "EVENT", commands: [.render],
            help: "the event after which to draw (default: the last; -1: before any)",
            number: .whole(-1...Int.max, "an event index >= 0, or -1 for the screen as built")
        ) { options, index in options.at = index },
        OptionSpec(
            "-o", "--output", value: "FILE", commands: [.render, .view, .codegen],
            help: "render, view and codegen: write to FILE (default or '-': stdout)"
        ) { options, flag in options.outputFile = flag.text == "-" ? nil : flag.text },
        OptionSpec(
            "--force", commands: [.codegen],
            help: "codegen: write over an existing -o FILE (without it, a usage error)"
        ) { options, _ in options.force = true },
        OptionSpec(
            "--name", value: "NAME", commands: [.codegen],
            help: "codegen: the test's name (default: 'replays ' and the trace's file name)"
        ) { options, flag in options.testName = flag.text },
        // `stackplay mutate` (issue 25, docs/mutate.md); it also takes the run's selection flags.
        OptionSpec(
            "--bail", commands: [.run],
            help: "stop at the first failed test: the tests after it do not run"
        ) { options, _ in options.bail = true },
        OptionSpec(
            "--watch", commands: [.run],
            help: """
                run, then again on every save: only the files saved and those
                that require a saved helper, with a summary each round; Ctrl-C
                ends it (docs/runner.md)
                """
        ) { options, _ in options.watch = true },
        OptionSpec(
            "--last-failed", commands: [.run],
            help: """
                run only the tests that failed in the last run of the same
                paths (kept in .stackplay/last-run.json); all when none did
                """
        ) { options, _ in options.lastFailed = true },
        OptionSpec(
            "--mutants", value: "ID,...|SPEC,...", commands: [.mutate],
            help: """
                only these mutants: by id (N13.threshold+) or by the SPEC
                id they break (N13, W4); repeatable
                """
        ) { options, flag throws(UsageError) in
            options.mutants += try mutantList(flag)
        },
        OptionSpec(
            "--exclude-mutants", value: "ID,...|SPEC,...", commands: [.mutate],
            help: """
                leave these mutants out (those known equivalent: no scenario
                can tell them from the model); repeatable; wins over --mutants
                """
        ) { options, flag throws(UsageError) in options.excludedMutants += try mutantList(flag) },
        OptionSpec(
            "--suggest", value: "DIR", commands: [.mutate],
            help: """
                for each survivor, search for the shortest scenario that tells
                it from the model and write it to DIR/<mutant>.lua as a test
                """
        ) { options, flag in options.suggestDirectory = flag.text },
        OptionSpec(
            "--include-equivalent", commands: [.mutate],
            help: """
                run the documented equivalent mutants too (by default they are
                reported Ignored, with the reason, and run by nobody)
                """
        ) { options, _ in options.includeEquivalent = true },
        OptionSpec(
            "--incremental", value: "FILE", commands: [.mutate],
            help: """
                reuse the verdicts of FILE, a previous mutate --json report, for
                the mutants whose killing test's file and models did not change
                (FILE may be the --json=FILE this run writes)
                """
        ) { options, flag in options.incrementalFile = flag.text },
        OptionSpec(
            "--html", value: "FILE", commands: [.mutate, .merge],
            help: """
                write the mutation report as one self-contained page: mutants by
                SPEC id, what each survivor changes, --suggest's tests, links
                to the trace of the test that killed each (with --artifacts)
                """
        ) { options, flag in options.htmlFile = flag.text },
        OptionSpec(
            "--min-score", value: "P", commands: [.mutate],
            help: "exit 1 when the mutation score is under P percent (0 to 100)",
            number: .percent
        ) { options, score in options.minimumScore = score },
        OptionSpec(
            "--runs", value: "N", commands: [.explore], help: "runs of each exploration (default: 100)",
            number: exploreCount
        ) { options, count in options.exploreRuns = count },
        OptionSpec(
            "--steps", value: "N", commands: [.explore], help: "steps of each run (default: 100)",
            number: exploreCount
        ) { options, count in options.exploreSteps = count },
        OptionSpec(
            "--time", value: "SECONDS", commands: [.explore],
            help: "wall time each exploration may take (default: no limit)", number: .seconds
        ) { options, seconds in options.exploreSeconds = seconds },
        OptionSpec(
            "--out", value: "DIR", commands: [.explore],
            help: "where a failure's reproducer and trace go (default: explore-out)"
        ) { options, flag in options.exploreOut = flag.text },
    ]

    /// `--audit=strict`: the seeds' own findings fail tests too.
    static let strictAudit = "strict"

    /// `--seed N`, `seed = N`.
    static let seedRule = NumberRule<Int>.whole(0...Int.max, "a whole number >= 0")

    /// `explore --runs N --steps N`.
    static let exploreCount = NumberRule<Int>.whole(1...100_000_000)

    /// `N13.strict,W4` → `["N13.strict", "W4"]`; an empty name is a usage error.
    private static func mutantList(_ flag: Flag) throws(UsageError) -> [String] {
        let names = flag.text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !names.contains(where: \.isEmpty) else {
            throw flag.needs("mutant or SPEC ids separated by commas")
        }
        return names
    }

    /// `rtl,smoke` → `["rtl", "smoke"]`; an empty name is a usage error.
    private static func tagList(_ flag: Flag) throws(UsageError) -> [String] {
        let tags = flag.text.split(separator: ",", omittingEmptySubsequences: false).map {
            String($0.trimmingPrefix(" ").reversed().drop { $0 == " " }.reversed())
        }
        guard !tags.contains(where: \.isEmpty) else { throw flag.needs("tag names separated by commas") }
        return tags
    }

    /// The most shards `--shard K/N` may name (as many as CI machines could ever be): balancing by
    /// `--shard-timings` keeps a load for at most as many shards as there are tests, so even this
    /// many costs nothing; past it, a count is a typo.
    static let maximumShards = Int(Int32.max)

    private static func reporter(_ flag: Flag) throws(UsageError) -> Format {
        guard let format = Format(rawValue: flag.text) else {
            let names = Format.allCases.map(\.rawValue)
            let near = nearestName(to: flag.text, in: names).map { " (did you mean '\($0)'?)" } ?? ""
            throw flag.needs("one of \(names.joined(separator: ", "))\(near)")
        }
        return format
    }

    private static func shard(_ flag: Flag) throws(UsageError) -> (Int, Int) {
        let parts = flag.text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, k >= 1, k <= n else {
            throw flag.needs("K/N with 1 <= K <= N")
        }
        guard n <= maximumShards else {
            throw flag.needs("at most \(maximumShards) shards (K/N with N <= \(maximumShards))")
        }
        return (k, n)
    }
}
