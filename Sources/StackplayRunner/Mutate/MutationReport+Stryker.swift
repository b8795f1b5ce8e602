import Bindings
import StackModel
import Traces

/// Stryker's mutation-testing-report-schema version 2, written and read back. Beside the schema's
/// fields, the report keeps what `merge` and `--incremental` need where the schema tolerates it:
/// each mutant's `killedAt` (the failed line), and a top-level `stackplay` object (the version and
/// catalogue the verdicts were given on, the runs' arguments, the shard, the jobs, the score, the
/// wall seconds). Each test file's `source` is its text as the run read it.
extension MutationReport {
    /// `files` keyed by model file (its source and mutants), `testFiles` keyed by script.
    var stryker: JSONValue {
        var files: [(String, JSONValue)] = []
        var order: [String] = []
        for outcome in outcomes where !order.contains(outcome.mutant.file) {
            order.append(outcome.mutant.file)
        }
        for file in order {
            let source = (try? TraceFile.read(Mutant.sourceDirectory + file)) ?? ""
            let mutants = outcomes.filter { $0.mutant.file == file }.map { Self.mutant($0, source: source) }
            files.append(
                (
                    Mutant.sourceFolder + file,
                    .object([
                        ("language", .string("swift")), ("source", .string(source)),
                        ("mutants", .array(mutants)),
                    ])
                ))
        }
        var testFiles: [(String, JSONValue)] = []
        var scripts: [String] = []
        for test in tests where !scripts.contains(test.file) { scripts.append(test.file) }
        for script in scripts {
            let listed = tests.filter { $0.file == script }.map { test -> JSONValue in
                .object([
                    ("id", .string(test.id)), ("name", .string(test.name)),
                    ("location", .object([("start", Self.position(line: test.line, column: 1))])),
                ])
            }
            var fields: [(String, JSONValue)] = [("tests", .array(listed))]
            if let source = sources[script] { fields.insert(("source", .string(source)), at: 0) }
            testFiles.append((script, .object(fields)))
        }
        var own: [(String, JSONValue)] = [
            ("models", .string(models)),
            ("arguments", .array(arguments.map { .string($0) })),
            ("jobs", .number(Double(jobs))),
            ("seconds", .number((seconds * 1000).rounded() / 1000)),
            ("mutationScore", .number((score * 100).rounded() / 100)),
            ("detected", .number(Double(detected))), ("valid", .number(Double(valid))),
        ]
        if let shard { own.append(("shard", .string("\(shard.index)/\(shard.count)"))) }
        if let reusedFrom {
            own.append(("reused", .number(Double(reused))))
            own.append(("reusedFrom", .string(reusedFrom)))
        }
        return .object([
            ("schemaVersion", .string("2")),
            ("thresholds", .object([("high", .number(80)), ("low", .number(60))])),
            ("projectRoot", .string(projectRoot)),
            ("files", .object(files)),
            ("testFiles", .object(testFiles)),
            (
                "framework",
                .object([("name", .string("stackplay")), ("version", .string(ReleaseVersions.string))])
            ),
            (
                "performance",
                .object([
                    ("setup", .number(0)), ("initialRun", .number((plainSeconds * 1000).rounded())),
                    ("mutation", .number(((seconds - plainSeconds) * 1000).rounded())),
                ])
            ),
            ("stackplay", .object(own)),
        ])
    }

    private static func mutant(_ outcome: MutantOutcome, source: String) -> JSONValue {
        let location = outcome.mutant.location(in: source)
        var fields: [(String, JSONValue)] = [
            ("id", .string(outcome.mutant.id)),
            ("mutatorName", .string(outcome.mutant.kind.rawValue)),
            ("replacement", .string("\(outcome.mutant.replacement)  // \(outcome.mutant.summary)")),
            ("description", .string("\(outcome.mutant.spec): \(outcome.mutant.summary)")),
            ("location", Self.location(location)),
            ("status", .string(outcome.status.rawValue)),
            ("static", .bool(false)),
        ]
        if outcome.status != .ignored {
            fields.append(("coveredBy", .array(outcome.coveredBy.map { .string($0) })))
            fields.append(("killedBy", .array(outcome.killer.map { [.string($0.test)] } ?? [])))
            fields.append(("testsCompleted", .number(Double(outcome.coveredBy.count))))
            fields.append(("duration", .number((outcome.seconds * 1000).rounded())))
        }
        if !outcome.reason.isEmpty { fields.append(("statusReason", .string(outcome.reason))) }
        if let killer = outcome.killer { fields.append(("killedAt", .string(killer.at))) }
        if outcome.reused { fields.append(("reused", .bool(true))) }
        return .object(fields)
    }

    private static func position(line: Int, column: Int) -> JSONValue {
        .object([("line", .number(Double(line))), ("column", .number(Double(column)))])
    }

    /// A mutant's place; line 1 when its model's source is not where it was built.
    private static func location(_ location: Mutant.Location?) -> JSONValue {
        .object([
            ("start", position(line: location?.line ?? 1, column: location?.startColumn ?? 1)),
            ("end", position(line: location?.line ?? 1, column: location?.endColumn ?? 2)),
        ])
    }

    // MARK: Reading

    struct Unreadable: Error, CustomStringConvertible {
        var description: String
    }

    /// A report `stackplay mutate --json` wrote, read back; every mutant must be in this
    /// stackplay's catalogue.
    static func read(_ text: String, path: String) throws(Unreadable) -> MutationReport {
        let document: JSONValue
        do { document = try JSONParser.parse(text) } catch {
            throw Unreadable(
                description: "\(path): malformed JSON at column \(error.column): \(error.message)")
        }
        func fail(_ field: String, _ message: String) -> Unreadable {
            Unreadable(description: "\(path): field '\(field)': \(message)")
        }
        guard case .string(let version)? = document["schemaVersion"], version.hasPrefix("2") else {
            throw fail("schemaVersion", "missing or not \"2\": not a mutation report stackplay mutate wrote")
        }
        guard case .object(let own)? = document["stackplay"] else {
            throw fail("stackplay", "missing: not a mutation report stackplay mutate wrote")
        }
        let mine = JSONValue.object(own)
        func number(_ name: String) -> Double? {
            if case .number(let value)? = mine[name] { return value }
            return nil
        }
        var report = MutationReport(
            outcomes: [], tests: [], sources: [:],
            plainSeconds: document["performance"]?["initialRun"].flatMap { value -> Double? in
                if case .number(let ms) = value { return ms / 1000 }
                return nil
            } ?? 0,
            seconds: number("seconds") ?? 0, jobs: Int(number("jobs") ?? 1), arguments: [], shard: nil,
            projectRoot: {
                if case .string(let root)? = document["projectRoot"] { return root } else { return "." }
            }()
        )
        if case .string(let models)? = mine["models"] { report.models = models }
        if case .array(let list)? = mine["arguments"] {
            report.arguments = list.compactMap { if case .string(let text) = $0 { text } else { nil } }
        }
        if case .string(let shard)? = mine["shard"] {
            let parts = shard.split(separator: "/").compactMap { Int($0) }
            if parts.count == 2 { report.shard = (parts[0], parts[1]) }
        }
        if case .object(let testFiles)? = document["testFiles"] {
            for (file, entry) in testFiles {
                if case .string(let source)? = entry["source"] { report.sources[file] = source }
                guard case .array(let list)? = entry["tests"] else {
                    throw fail("testFiles", "\(file) has no tests")
                }
                for test in list {
                    guard case .string(let id)? = test["id"], case .string(let name)? = test["name"] else {
                        throw fail("testFiles", "a test of \(file) has no id or name")
                    }
                    var line = 1
                    if case .number(let at)? = test["location"]?["start"]?["line"] { line = Int(at) }
                    report.tests.append(SuiteTest(id: id, name: name, file: file, line: line))
                }
            }
        }
        guard case .object(let files)? = document["files"] else {
            throw fail("files", "missing or not an object")
        }
        for (_, file) in files {
            guard case .array(let mutants)? = file["mutants"] else {
                throw fail("files", "a file has no mutants")
            }
            for entry in mutants { report.outcomes.append(try outcome(entry, report.tests, fail)) }
        }
        // The catalogue's order, as a run reports them.
        let order = Dictionary(uniqueKeysWithValues: Mutant.catalogue.enumerated().map { ($1.id, $0) })
        report.outcomes.sort { order[$0.mutant.id]! < order[$1.mutant.id]! }
        return report
    }

    private static func outcome(
        _ entry: JSONValue, _ tests: [SuiteTest], _ fail: (String, String) -> Unreadable
    ) throws(Unreadable) -> MutantOutcome {
        guard case .string(let id)? = entry["id"] else { throw fail("mutants", "a mutant has no id") }
        guard let mutant = Mutant.catalogue.first(where: { $0.id == id }) else {
            throw fail("mutants", "no mutant '\(id)' in this stackplay's catalogue")
        }
        guard case .string(let name)? = entry["status"], let status = MutantOutcome.Status(rawValue: name)
        else {
            throw fail("mutants", "\(id) has no status stackplay writes")
        }
        var outcome = MutantOutcome(mutant: mutant, status: status)
        if case .string(let reason)? = entry["statusReason"] { outcome.reason = reason }
        if case .number(let ms)? = entry["duration"] { outcome.seconds = ms / 1000 }
        if case .array(let covered)? = entry["coveredBy"] {
            outcome.coveredBy = covered.compactMap { if case .string(let test) = $0 { test } else { nil } }
        }
        if case .array(let killers)? = entry["killedBy"], case .string(let test)? = killers.first {
            let file = tests.first { $0.id == test }?.file ?? ""
            var at = ""
            if case .string(let where_)? = entry["killedAt"] { at = where_ }
            outcome.killer = MutantOutcome.Killer(test: test, file: file, at: at)
        }
        return outcome
    }
}
