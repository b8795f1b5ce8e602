import Foundation
import StackModel
import Traces

/// `stackplay studio`: the page's server side. Requests pass the guard (token, Host, Origin);
/// the page's WebSocket carries the live screen's pointer events (answered with the model's
/// frames), the Tests pane's runs (results pushed as each file ends) and Record.
public final class Studio: WebHandler, @unchecked Sendable {
    let guardian: StudioGuard
    let folders: StudioFolders
    let tests: TestsPane
    private let lock = NSLock()
    private var live: LiveScreen?
    private var sequence = 0
    private var recording = Recording()
    /// Saves re-run their tests (nil when inotify cannot watch the paths).
    private var watch: StudioWatch?
    /// Set once the server runs: pushes to every page.
    var broadcast: @Sendable (String) -> Void = { _ in }

    init(guardian: StudioGuard, folders: StudioFolders, stackplay: String, paths: [String]) {
        self.guardian = guardian
        self.folders = folders
        nonisolated(unsafe) var me: Studio?
        tests = TestsPane(stackplay: stackplay, paths: paths, roots: folders.roots) { message in
            me?.broadcast(message.text)
        }
        me = self
    }

    /// Lists the tests, starts watching, and opens a fresh screen, before the first page asks.
    func start() {
        tests.list()
        let publish = broadcast
        watch = StudioWatch(paths: tests.paths, tests: tests) { publish($0.text) }
        if let screen = try? FreshScreen(.object([])).build(stackplay: tests.stackplay) {
            _ = open(screen)
        }
    }

    // MARK: HTTP

    public func refusal(of request: WebRequest) -> WebResponse? { guardian.refusal(of: request) }

    public func respond(to request: WebRequest) -> WebResponse {
        guard request.method == "GET" else { return WebResponse(status: 405, body: "only GET here\n") }
        switch request.path {
        case "/":
            return WebResponse(status: 200, contentType: "text/html; charset=utf-8", body: StudioPage.html)
        case "/viewer":
            guard let file = request.query["file"], let test = request.query["test"],
                let page = tests.viewer(file: file, test: test)
            else { return WebResponse(status: 404, body: "no result for that test yet: run it first\n") }
            return WebResponse(status: 200, contentType: "text/html; charset=utf-8", body: page)
        default:
            return WebResponse(status: 404, body: "not found\n")
        }
    }

    // MARK: WebSocket

    public func opened(_ socket: WebSocket) {
        socket.send(tests.snapshot().text)
        lock.lock()
        let message = live.map { frameMessage($0) }
        lock.unlock()
        if let message { socket.send(message) }
    }

    public func closed(_ socket: WebSocket) {}

    public func received(_ text: String, from socket: WebSocket) -> Bool {
        guard let message = try? JSONParser.parse(text), case .string(let op)? = message["op"] else {
            socket.send(Self.error("a message is a JSON object with an 'op'"))
            return true
        }
        do {
            for reply in try handle(op, message) { socket.send(reply) }
        } catch {
            socket.send(Self.error("\(error)"))
        }
        return true
    }

    static func error(_ message: String) -> String {
        JSONValue.object([("type", .string("error")), ("message", .string(message))]).text
    }

    private static func number(_ message: JSONValue, _ key: String) -> Double? {
        if case .number(let value)? = message[key], value.isFinite { return value }
        return nil
    }

    private static func string(_ message: JSONValue, _ key: String) -> String? {
        if case .string(let value)? = message[key] { return value }
        return nil
    }

    /// One message of the page: the replies for the page that sent it.
    func handle(_ op: String, _ message: JSONValue) throws -> [String] {
        let t = Self.number(message, "t")
        switch op {
        case "run":
            tests.run(file: Self.string(message, "file"), test: Self.string(message, "test"))
            return []
        case "list":
            tests.list()
            return []
        case "fresh":
            let screen = try FreshScreen(message).build(stackplay: tests.stackplay)
            return [open(screen)]
        case "open":
            guard let file = Self.string(message, "file"), let test = Self.string(message, "test"),
                let result = tests.result(file: file, test: test)
            else { throw StudioError("no result for that test yet: run it first") }
            guard case .array(let traces)? = result["traces"], !traces.isEmpty else {
                throw StudioError("\(file): \(test) made no screen to open")
            }
            let index = Int(Self.number(message, "screen") ?? 0)
            guard traces.indices.contains(index), case .string(let text) = traces[index] else {
                throw StudioError("no screen \(index + 1) in \(file): \(test)")
            }
            let trace: Trace
            do { trace = try Trace(text: text, file: file) } catch { throw StudioError("\(error)") }
            let action = Self.number(message, "action").map(Int.init)
            var events = trace.steps.count
            var place = "its end"
            if let action, trace.actions.indices.contains(action) {
                let chosen = trace.actions[action]
                events = chosen.firstEvent + chosen.events
                place = "line \(chosen.sourceLine), after \(chosen.source)"
            }
            return [
                open(
                    try LiveScreen(
                        trace: trace, events: events, origin: "\(tests.display(file)): \(test), at \(place)"))
            ]
        case "down", "move", "up", "frame", "escape", "set":
            lock.lock()
            defer { lock.unlock() }
            guard let live else { throw StudioError("no live screen: open one first") }
            let point = Point(x: Self.number(message, "x") ?? 0, y: Self.number(message, "y") ?? 0)
            switch op {
            case "down": try live.down(point, at: t)
            case "move": try live.move(point, at: t)
            case "up": try live.up(at: t)
            case "escape": try live.escape(at: t)
            case "set":
                guard let key = Self.string(message, "key"), let value = message["value"] else {
                    throw StudioError("set needs a key and a value")
                }
                try live.set(key, value, at: t)
            default: try live.frame(at: t)
            }
            var replies = [frameMessage(live)]
            // The scenario follows each gesture's end, not each move.
            if live.recorder != nil, op != "move", op != "frame" || live.isResting {
                replies.append(luaMessage(live))
            }
            return replies
        case "record":
            lock.lock()
            defer { lock.unlock() }
            guard let live else { throw StudioError("no live screen: open one first") }
            let on = message["on"] == .bool(true)
            try live.record(on)
            recording = Recording()
            return on ? [frameMessage(live), luaMessage(live)] : [frameMessage(live)]
        case "expect":
            lock.lock()
            defer { lock.unlock() }
            guard let live, live.recorder != nil else { throw StudioError("press Record first") }
            try recording.expect(message, on: live.screen)
            return [luaMessage(live)]
        case "save":
            guard let name = Self.string(message, "name") else { throw StudioError("save needs a file name") }
            lock.lock()
            let text = live.flatMap { recording.lua(of: $0) }
            lock.unlock()
            guard let text else { throw StudioError("nothing recorded to save") }
            return [try save(text, as: name, overwrite: message["overwrite"] == .bool(true))]
        default:
            throw StudioError("unknown op '\(op)'")
        }
    }

    /// Makes `screen` the live one; its first frame.
    func open(_ screen: LiveScreen) -> String {
        lock.lock()
        defer { lock.unlock() }
        live = screen
        recording = Recording()
        return frameMessage(screen)
    }

    private func frameMessage(_ live: LiveScreen) -> String {
        sequence += 1
        return live.message(sequence: sequence).text
    }

    private func luaMessage(_ live: LiveScreen) -> String {
        JSONValue.object([
            ("type", .string("lua")), ("text", .string(recording.lua(of: live) ?? "")),
            ("expectations", .number(Double(recording.expectations.count))),
        ]).text
    }

    /// Writes the recorded scenario inside the studio's folders, never over a file unless asked,
    /// then runs it as written and mirrored.
    private func save(_ text: String, as name: String, overwrite: Bool) throws -> String {
        guard name.hasSuffix(".lua"), !name.contains("\0") else {
            throw StudioError("a scenario's file name ends in .lua, not '\(name)'")
        }
        guard let path = folders.inside(name) else {
            throw StudioError(
                "\(name) is outside the folders the studio was given (\(folders.roots.joined(separator: ", ")))"
            )
        }
        if FileManager.default.fileExists(atPath: path), !overwrite {
            return JSONValue.object([
                ("type", .string("exists")), ("name", .string(name)), ("path", .string(path)),
            ]).text
        }
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw StudioError("cannot write \(path): \(error.localizedDescription)")
        }
        let plain = TestsPane.spawn(tests.stackplay, [path])
        let mirrored = TestsPane.spawn(tests.stackplay, ["--mirror", path])
        tests.list()
        return JSONValue.object([
            ("type", .string("saved")), ("name", .string(name)), ("path", .string(path)),
            ("passes", .bool(plain.status == 0)), ("passes_mirrored", .bool(mirrored.status == 0)),
            ("output", .string(plain.out + plain.err + mirrored.out + mirrored.err)),
        ]).text
    }
}
