import Foundation
import Traces

/// `stackplay-studio [--address ADDR] [--port N] [--stackplay PATH] [FILE|DIR ...]`, which
/// `stackplay studio` starts: serves the page until interrupted.
public enum StudioCommand {
    public static let usage = """
        USAGE: stackplay studio [--port N] [--address ADDR] [FILE|DIR ...]

        Serves one local page with three panes: the tests of FILE|DIR (default: the current
        folder) with their results and traces, a live screen of the real model to drag, tap and
        Esc, and Record, which writes what you do as a Lua scenario. Saving a script re-runs its
        tests. docs/studio.md has the rest.

        OPTIONS:
          --port N          the port to listen on (default: any free port)
          --address ADDR    listen on ADDR instead of 127.0.0.1: anyone who reaches it with the
                            printed token can run the scripts and write .lua files in the folders
          --stackplay PATH  the stackplay executable that runs the tests (default: the one beside
                            this program)
        """

    struct Arguments {
        var address = "127.0.0.1"
        var port = 0
        var stackplay: String?
        var paths: [String] = []
    }

    static func parse(_ arguments: [String]) throws(StudioError) -> Arguments {
        var parsed = Arguments()
        var index = 0
        func value(_ flag: String) throws(StudioError) -> String {
            index += 1
            guard index < arguments.count else { throw StudioError("\(flag) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--address": parsed.address = try value(argument)
            case "--port":
                let text = try value(argument)
                guard let port = Int(text), (0...65535).contains(port) else {
                    throw StudioError("--port: a port number 0...65535 expected, got '\(text)'")
                }
                parsed.port = port
            case "--stackplay": parsed.stackplay = try value(argument)
            default:
                guard !argument.hasPrefix("-") || argument == "-" else {
                    throw StudioError("unknown option '\(argument)'")
                }
                parsed.paths.append(argument)
            }
            index += 1
        }
        if parsed.paths.isEmpty { parsed.paths = ["."] }
        return parsed
    }

    /// The `stackplay` beside this executable.
    static func besideMe(_ name: String) -> String {
        let me =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return ((me as NSString).deletingLastPathComponent as NSString).appendingPathComponent(name)
    }

    /// Runs the studio; returns an exit code only when it cannot start.
    public static func run(_ arguments: [String]) -> Int32 {
        if arguments.first == "--measure-latency" {
            return StudioMeasure.run(rounds: arguments.count > 1 ? Int(arguments[1]) ?? 2000 : 2000)
        }
        if arguments.contains("--help") || arguments.contains("-h") {
            print(usage)
            return 0
        }
        let parsed: Arguments
        do { parsed = try parse(arguments) } catch {
            FileHandle.standardError.write(Data("stackplay studio: \(error)\n\(usage)\n".utf8))
            return 64
        }
        // Ctrl-C and a terminate end the studio, even when its parent blocked or ignored them
        // (an exec keeps both): it holds nothing a kill could leave half written.
        var stops = sigset_t()
        sigemptyset(&stops)
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            sigaddset(&stops, signal)
            _ = Glibc.signal(signal, SIG_DFL)
        }
        pthread_sigmask(SIG_UNBLOCK, &stops, nil)
        let stackplay = parsed.stackplay ?? besideMe("stackplay")
        guard FileManager.default.isExecutableFile(atPath: stackplay) else {
            FileHandle.standardError.write(
                Data("stackplay studio: no stackplay executable at \(stackplay)\n".utf8))
            return 64
        }
        do {
            let folders = try StudioFolders(parsed.paths)
            let token = try StudioGuard.randomToken()
            // The guard needs the port, which the server knows once it listens: a forwarding handler.
            let door = Door()
            let server = WebServer(handler: door)
            try server.start(address: parsed.address, port: parsed.port)
            let guardian = StudioGuard(token: token, address: parsed.address, port: server.port)
            let studio = Studio(
                guardian: guardian, folders: folders, stackplay: stackplay, paths: parsed.paths)
            studio.broadcast = { [server] text in server.broadcast(text) }
            door.studio = studio
            studio.start()
            let shown = parsed.address.contains(":") ? "[\(parsed.address)]" : parsed.address
            let host = shown
            var said = "stackplay studio: http://\(host):\(server.port)/?token=\(token)\n"
            said +=
                "  tests of \(parsed.paths.joined(separator: " ")); reads and writes files only in \(folders.roots.joined(separator: ", "))\n"
            if parsed.address != "127.0.0.1" && parsed.address != "localhost" {
                said +=
                    "  listening on \(shown), not only this machine: anyone who can reach it and has the URL's token can "
                    + "run these scripts and write .lua files in those folders\n"
            }
            said += "  Ctrl-C stops it\n"
            FileHandle.standardOutput.write(Data(said.utf8))
        } catch {
            FileHandle.standardError.write(Data("stackplay studio: \(error)\n".utf8))
            return 1
        }
        // The server's threads do the work; this one waits for a signal (no polling).
        while true { pause() }
    }
}

/// The server's handler until the studio exists (a request before then is refused).
final class Door: WebHandler, @unchecked Sendable {
    nonisolated(unsafe) var studio: Studio?

    func refusal(of request: WebRequest) -> WebResponse? {
        guard let studio else { return WebResponse(status: 503, body: "starting\n") }
        return studio.refusal(of: request)
    }
    func respond(to request: WebRequest) -> WebResponse {
        studio?.respond(to: request) ?? WebResponse(status: 503, body: "starting\n")
    }
    func opened(_ socket: WebSocket) { studio?.opened(socket) }
    func received(_ text: String, from socket: WebSocket) -> Bool {
        studio?.received(text, from: socket) ?? false
    }
    func closed(_ socket: WebSocket) { studio?.closed(socket) }
}
