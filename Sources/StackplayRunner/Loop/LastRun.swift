import SystemCalls
import TestResults
import Traces

#if canImport(Glibc)
    import Glibc
#endif

/// The last run's failures, kept for `--last-failed` in `.stackplay/last-run.json` in the
/// project: the folder of the run's `.stackplay.lua`, else the repository's root (the nearest
/// folder upward holding `.git`), else the folder of the first path given. `.stackplay/` gets a
/// `.gitignore` holding `*`, so git never sees it. Every run of scripts (not `--list`, not an
/// interrupted one) records the tests that failed, by the paths it was given (as real paths, so
/// `scripts` and `./scripts` are one key; the 32 latest keys are kept), replacing that key's last
/// record. A file stackplay did not write is never written over: a `.stackplay` that is not a
/// folder, or a `last-run.json` that is not stackplay's, leaves the record unwritten (said once
/// on stderr).
struct LastRun {
    static let folderName = ".stackplay"
    static let fileName = "last-run.json"
    static let format = "stackplay-last-run"
    static let keptRuns = 32
    /// `STACKPLAY_LAST_RUN=0` (or set empty): the run records nothing (`mutate`'s child runs,
    /// which are not the user's runs, set it). On when unset, else as every switch reads
    /// (``EnvironmentSwitch``).
    static let switchVariable = "STACKPLAY_LAST_RUN"

    static var recordsRuns: Bool { getenv(switchVariable) == nil || EnvironmentSwitch.isOn(switchVariable) }

    /// The project folder (above).
    let project: String
    /// The run's key: its paths' real paths, sorted.
    let key: [String]

    var folder: String { project + "/" + Self.folderName }
    var file: String { folder + "/" + Self.fileName }

    init(paths: [String], config: String?) {
        key = paths.map(AffectedScripts.canonical).sorted()
        if let config {
            project = AffectedScripts.canonical(Discovery.folder(of: config))
        } else {
            let first = paths.first ?? "."
            let start = AffectedScripts.canonical(
                Discovery.kind(of: first) == .folder ? first : Discovery.folder(of: first))
            project = Self.repository(from: start) ?? start
        }
    }

    /// The nearest folder from `folder` upward that holds `.git`, if any.
    static func repository(from folder: String) -> String? {
        var folder = folder
        while true {
            if Discovery.kind(of: (folder == "/" ? "" : folder) + "/.git") != .missing { return folder }
            if folder == "/" || folder.isEmpty { return nil }
            let parent = Discovery.folder(of: folder)
            folder = parent.isEmpty || parent == "." ? "/" : parent
        }
    }

    /// One failed test: its file (real path) and its name in the file (without a variant).
    struct Failed: Hashable {
        var file: String
        var name: String
    }

    /// The records in the file: nil when there is none or it is not stackplay's.
    private func records() -> [(paths: [String], failed: [Failed])]? {
        guard let text = Check.readFile(file), case .object(let fields)? = try? JSONParser.parse(text),
            fields.first(where: { $0.0 == "format" })?.1 == .string(Self.format),
            case .array(let runs)? = fields.first(where: { $0.0 == "runs" })?.1
        else { return nil }
        return runs.compactMap { run -> (paths: [String], failed: [Failed])? in
            guard case .object(let o) = run, case .array(let paths)? = o.first(where: { $0.0 == "paths" })?.1,
                case .array(let failed)? = o.first(where: { $0.0 == "failed" })?.1
            else { return nil }
            return (
                paths.compactMap { if case .string(let s) = $0 { s } else { nil } },
                failed.compactMap { entry -> Failed? in
                    guard case .object(let e) = entry,
                        case .string(let file)? = e.first(where: { $0.0 == "file" })?.1,
                        case .string(let name)? = e.first(where: { $0.0 == "name" })?.1
                    else { return nil }
                    return Failed(file: file, name: name)
                }
            )
        }
    }

    /// The tests that failed in the last run of these paths; nil when no run of them is recorded.
    func failed() -> [Failed]? {
        records()?.first { $0.paths == key }?.failed
    }

    /// What `--last-failed` runs: the tests that failed last time (nil when none did: the run
    /// runs all).
    func picks() -> TestPicks? {
        guard let failed = failed(), !failed.isEmpty else { return nil }
        var picks = TestPicks(othersRun: false)
        for test in failed { picks.files[test.file, default: TestPicks.InFile()].names.insert(test.name) }
        return picks
    }

    /// Records the run's failures (`results`: those it reported) under its key.
    func record(_ results: [TestResult]) {
        var seen = Set<Failed>()
        // A whole file's failure (a file that did not load, or has no tests) is its file: "".
        let failed = results.filter { $0.status == .failed }.map {
            Failed(
                file: AffectedScripts.canonical($0.test.file),
                name: $0.test.index == 0 ? "" : $0.test.baseName)
        }.filter { seen.insert($0).inserted }
        var info = stat()
        if lstat(folder, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                return note("\(folder) is not a folder stackplay made")
            }
        } else if mkdir(folder, 0o755) != 0 {
            return  // a read-only project: nothing is recorded, and nothing is said
        }
        // `*`: git ignores the folder and everything in it; a .gitignore of the user's stays.
        let ignore = open(folder + "/.gitignore", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        if ignore >= 0 {
            _ = Syscall.writeAll(
                ignore, "# Written by stackplay: its own records (--last-failed), never committed.\n*\n")
            close(ignore)
        }
        var runs: [(paths: [String], failed: [Failed])] = []
        if lstat(file, &info) == 0 {
            guard let old = records() else { return note("\(file) is not stackplay's record") }
            runs = old.filter { $0.paths != key }
        }
        runs.insert((key, failed), at: 0)
        let document = JSONValue.object([
            ("format", .string(Self.format)), ("version", .number(1)),
            (
                "runs",
                .array(
                    runs.prefix(Self.keptRuns).map { run in
                        .object([
                            ("paths", .array(run.paths.map { .string($0) })),
                            (
                                "failed",
                                .array(
                                    run.failed.map {
                                        .object([("file", .string($0.file)), ("name", .string($0.name))])
                                    })
                            ),
                        ])
                    })
            ),
        ])
        try? TraceFile.replace(file, with: document.text + "\n")
    }

    private func note(_ why: String) {
        Output.err("stackplay: note: the run's failures are not recorded for --last-failed: \(why)")
    }
}

extension LastRun {
    /// A run of `scripts` that records its failures, and with `--last-failed` runs only those of
    /// the last run of the same paths (all of them, said on stderr, when none failed).
    static func run(
        _ options: Options, config: String?, scripts: [Script], _ make: (Options) -> TestRun
    ) -> Int32 {
        var options = options
        let store = LastRun(paths: options.paths, config: config)
        if options.lastFailed {
            if let picks = store.picks() {
                let count = picks.files.values.reduce(0) { $0 + $1.names.count }
                Output.err(
                    "stackplay: --last-failed: running the \(count) test\(count == 1 ? "" : "s") that failed last time"
                )
                options.picks = picks
            } else {
                Output.err(
                    "stackplay: --last-failed: "
                        + (store.failed() == nil
                            ? "no earlier run of these paths is recorded" : "no test failed last time")
                        + "; running every test")
            }
        }
        let results = ResultList()
        var run = make(options)
        run.observe = { results.items.append($0) }
        let code = run.run(scripts)
        if !options.list, recordsRuns, code == ExitCode.success || code == ExitCode.failure {
            store.record(results.items)
        }
        return code
    }
}

/// The results a run reported, kept by its observer.
final class ResultList {
    var items: [TestResult] = []
}
