import Foundation
import TestResults
import Traces

/// The Tests pane's side: lists the tests (`stackplay --list --json`) and runs them
/// (`stackplay --json --trace DIR`), one file per process in turn on its own thread, so that each
/// file's results reach the page as soon as it ends. The last result of each test is kept, with
/// its traces, for the trace viewer and for opening it on the live screen.
final class TestsPane: @unchecked Sendable {
    /// The `stackplay` executable that runs the tests.
    let stackplay: String
    /// The paths the studio was given, as given (relative to the working folder).
    let paths: [String]
    /// The folders' absolute paths, which the page leaves out of the files' names.
    let roots: [String]
    /// Where each run's traces go; the JSON report carries them too.
    private let scratch: String
    private let publish: @Sendable (JSONValue) -> Void
    private let lock = NSCondition()
    private var queue: [(file: String?, test: String?)] = []
    /// The last result of each test, by `file` then name.
    private var results: [String: [String: JSONValue]] = [:]
    private var listing: JSONValue = .object([("tests", .array([])), ("broken", .array([]))])

    init(
        stackplay: String, paths: [String], roots: [String], publish: @escaping @Sendable (JSONValue) -> Void
    ) {
        self.stackplay = stackplay
        self.paths = paths
        self.roots = roots
        self.publish = publish
        scratch = NSTemporaryDirectory() + "stackplay-studio-\(getpid())"
        let thread = Thread { [unowned self] in self.work() }
        thread.name = "stackplay-studio runs"
        thread.start()
    }

    /// Runs `stackplay` with `arguments`; its stdout, stderr and exit status.
    static func spawn(_ executable: String, _ arguments: [String]) -> (
        out: String, err: String, status: Int32
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["CI"] = nil
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch { return ("", "cannot start \(executable): \(error)", 127) }
        // Both pipes drained at once: a full stderr must not stall a child writing its report.
        nonisolated(unsafe) var errorBytes = Data()
        let drained = DispatchSemaphore(value: 0)
        Thread {
            errorBytes = err.fileHandleForReading.readDataToEndOfFile()
            drained.signal()
        }.start()
        let outBytes = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        drained.wait()
        return (
            String(decoding: outBytes, as: UTF8.self), String(decoding: errorBytes, as: UTF8.self),
            process.terminationStatus
        )
    }

    /// Lists the tests again (after a save) and tells the page.
    func list() {
        let run = Self.spawn(stackplay, ["--list", "--json"] + paths)
        let listed =
            (try? JSONParser.parse(run.out)) ?? .object([("tests", .array([])), ("broken", .array([]))])
        lock.lock()
        listing = listed
        lock.unlock()
        publish(snapshot())
    }

    /// The list and the last results, as one message.
    func snapshot() -> JSONValue {
        lock.lock()
        defer { lock.unlock() }
        var summaries: [JSONValue] = []
        for file in results.keys.sorted() {
            for (_, result) in results[file]!.sorted(by: { $0.key < $1.key }) {
                summaries.append(Self.summary(result))
            }
        }
        return .object([
            ("type", .string("tests")), ("listing", listing), ("results", .array(summaries)),
            ("roots", .array(roots.map { .string($0) })),
        ])
    }

    /// Queues a run: every file (nil), one file, or one test of a file.
    func run(file: String?, test: String?) {
        lock.lock()
        queue.append((file, test))
        lock.signal()
        lock.unlock()
    }

    /// The stored result of a test, with its traces.
    func result(file: String, test: String) -> JSONValue? {
        lock.lock()
        defer { lock.unlock() }
        return results[file]?[test]
    }

    /// The run thread: waits on the condition (no polling) for the next queued run.
    private func work() {
        while true {
            lock.lock()
            while queue.isEmpty { lock.wait() }
            let job = queue.removeFirst()
            lock.unlock()
            let files: [String]
            if let file = job.file {
                files = [file]
            } else {
                lock.lock()
                var seen: [String] = []
                if case .array(let tests)? = listing["tests"] {
                    for test in tests {
                        if case .string(let file)? = test["file"], !seen.contains(file) { seen.append(file) }
                    }
                }
                lock.unlock()
                files = seen
            }
            publish(.object([("type", .string("run-start")), ("files", .array(files.map { .string($0) }))]))
            for file in files { runFile(file, test: job.test) }
            publish(.object([("type", .string("run-end"))]))
        }
    }

    private func runFile(_ file: String, test: String?) {
        var arguments = ["--json", "--trace", scratch]
        if let test { arguments += ["--filter", "\(file): \(test)"] }
        let run = Self.spawn(stackplay, arguments + [file])
        var tests: [JSONValue] = []
        if case .array(let all)? = (try? JSONParser.parse(run.out))?["tests"] {
            tests = all.filter { test == nil || $0["name"] == .string(test!) }
        }
        if tests.isEmpty {
            let message = run.err.isEmpty ? "stackplay exited \(run.status) without a report" : run.err
            tests = [
                .object([
                    ("file", .string(file)), ("name", .string(test ?? file)), ("status", .string("failed")),
                    ("message", .string(message)), ("traces", .array([])),
                ])
            ]
        }
        lock.lock()
        for result in tests {
            if case .string(let name)? = result["name"] { results[file, default: [:]][name] = result }
        }
        lock.unlock()
        publish(
            .object([
                ("type", .string("results")), ("file", .string(file)),
                ("tests", .array(tests.map(Self.summary))),
            ]))
    }

    /// What the page lists of a result: no traces, but each trace's actions (to open the test on
    /// the live screen at one of them) and the action it failed at.
    static func summary(_ result: JSONValue) -> JSONValue {
        var fields: [(String, JSONValue)] = []
        for key in ["file", "name", "status", "seconds", "message", "position", "failure_position", "tags"] {
            if let value = result[key] { fields.append((key, value)) }
        }
        var screens: [JSONValue] = []
        if case .array(let traces)? = result["traces"] {
            for case .string(let text) in traces {
                guard let trace = try? Trace(text: text, file: "trace") else { continue }
                let actions = trace.actions.map { action -> JSONValue in
                    .object([
                        ("line", .number(Double(action.sourceLine))), ("method", .string(action.method)),
                        ("source", .string(action.source)),
                    ])
                }
                screens.append(
                    .object([
                        ("actions", .array(actions)),
                        ("failing", failingAction(trace, result).map { .number(Double($0)) } ?? .null),
                    ]))
            }
        }
        fields.append(("screens", .array(screens)))
        return .object(fields)
    }

    /// The last action at or before the failure's line, in the failing file (nil: none).
    static func failingAction(_ trace: Trace, _ result: JSONValue) -> Int? {
        guard result["status"] == .string("failed"), case .string(let position)? = result["failure_position"],
            let colon = position.lastIndex(of: ":"), let line = Int(position[position.index(after: colon)...])
        else { return nil }
        let file = String(position[..<colon])
        return trace.actions.lastIndex { $0.file == file && $0.sourceLine <= line }
            ?? (trace.actions.isEmpty ? nil : trace.actions.count - 1)
    }

    /// The trace viewer's page (the same code as report.html) for one result.
    func viewer(file: String, test: String) -> String? {
        guard let result = result(file: file, test: test) else { return nil }
        var traces: [String] = []
        if case .array(let all)? = result["traces"] {
            for case .string(let text) in all { traces.append(text) }
        }
        let status: TraceViewer.Status =
            switch result["status"] {
            case .string("passed")?: .passed
            case .string("skipped")?: .skipped
            default: .failed
            }
        var seconds: Double?
        if case .number(let value)? = result["seconds"] { seconds = value }
        var message = ""
        if case .string(let text)? = result["message"] { message = text }
        var output = ""
        if case .string(let text)? = result["output"] { output = text }
        let screens = traces.enumerated().map {
            TraceViewer.Screen(name: "screen \($0.offset + 1)", trace: $0.element)
        }
        let viewed = TraceViewer.Test(
            name: "\(display(file)): \(test)", status: status, seconds: seconds, message: message,
            screens: screens,
            output: output,
            sources: TraceViewer.sources(of: traces, script: file) { name in
                // only scripts inside the studio's folders, never another path a trace names
                roots.contains { TraceViewer.isModule(name, under: $0) }
            })
        return TraceViewer.html([viewed], title: "\(display(file)): \(test)")
    }

    /// A file as a person names it: relative to the folder it is in, as the page shows it.
    func display(_ file: String) -> String {
        for root in roots where file.hasPrefix(root + "/") { return String(file.dropFirst(root.count + 1)) }
        return file.hasPrefix("./") ? String(file.dropFirst(2)) : file
    }
}
