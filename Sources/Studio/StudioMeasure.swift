import CCivetweb
import Foundation
import StackModel
import Traces

/// `stackplay-studio --measure-latency N` (`make bench`): a pointer move through the studio's
/// server and back as a frame, against the same move straight on the Swift model, in one run.
/// The server is the real one (guard, WebSocket, the live screen's handler); the client is
/// CivetWeb's own WebSocket client on loopback, so no protocol code is written here either.
enum StudioMeasure {
    /// A 4-card open notification stack with a finger down on a card: what a drag moves.
    static func screen() throws -> LiveScreen {
        let component = try JSONParser.parse(
            """
            {"kind":"notification_stack","name":"notifications","items":[{"id":"messages","height":70,"label":"messages"},\
            {"id":"calendar","height":70,"label":"calendar"},{"id":"mail","height":70,"label":"mail"},\
            {"id":"fitness","height":70,"label":"fitness"}],"expanded":true,"title":"Notifications","spacing":10,\
            "peek":10,"dismissible":true,"x":16,"y":0,"width":358}
            """)
        return try LiveScreen(
            trace: LiveScreen.header(settings: ScreenSettings(), components: [component]), events: nil,
            origin: "bench")
    }

    /// The frames the client got, signalled to the measuring thread.
    final class Replies: @unchecked Sendable {
        let arrived = DispatchSemaphore(value: 0)
    }

    /// Microseconds of `rounds` moves each way, the two taken in turn: (through the server, direct).
    static func latency(rounds: Int) throws -> (loopback: [Double], direct: [Double]) {
        let token = try StudioGuard.randomToken()
        let door = Door()
        let server = WebServer(handler: door)
        // Neither the server nor the client is closed: the process ends once the numbers are out.
        try server.start(address: "127.0.0.1", port: 0)
        let studio = Studio(
            guardian: StudioGuard(
                token: token, address: "127.0.0.1", port: server.port, alsoAccepting: ["127.0.0.1"]),
            folders: try StudioFolders([NSTemporaryDirectory()]), stackplay: "/bin/false", paths: [])
        door.studio = studio
        let live = try screen()
        _ = studio.open(live)
        let replies = Replies()
        var error = [CChar](repeating: 0, count: 256)
        let path = "/ws?token=\(token)"
        let origin = "http://127.0.0.1:\(server.port)"
        guard
            let client = mg_connect_websocket_client(
                "127.0.0.1", Int32(server.port), 0, &error, error.count, path, origin,
                { _, bits, _, _, data in
                    if bits & 0x0f == Int32(MG_WEBSOCKET_OPCODE_TEXT), let data {
                        Unmanaged<Replies>.fromOpaque(data).takeUnretainedValue().arrived.signal()
                    }
                    return 1
                }, nil, Unmanaged.passUnretained(replies).toOpaque())
        else { throw StudioError("cannot connect to the studio: \(String(cString: error))") }
        noDelay(toPort: server.port)
        // The page's first messages (the tests, the frame), then a finger down on the calendar card.
        replies.arrived.wait()
        replies.arrived.wait()
        guard let card = live.screen.snapshot().components[0].cards.first(where: { $0.id == "calendar" })
        else {
            throw StudioError("no calendar card")
        }
        let start = Point(x: card.frame.midX, y: card.frame.midY)
        func send(_ text: String) {
            var bytes = Array(text.utf8)
            mg_websocket_client_write(client, Int32(MG_WEBSOCKET_OPCODE_TEXT), &bytes, bytes.count)
            replies.arrived.wait()
        }
        send("{\"op\":\"down\",\"x\":\(start.x),\"y\":\(start.y),\"t\":0}")
        // The same screen again, straight on the model.
        let direct = try screen()
        try direct.down(start, at: 0)
        let clock = ContinuousClock()
        func micro(_ duration: Duration) -> Double {
            Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) * 1e-12
        }
        var loopback: [Double] = []
        var straight: [Double] = []
        for round in 1...rounds {
            let point = Point(x: start.x - Double(round % 100), y: start.y)
            let t = Double(round) / 1000
            let sent = clock.now
            send("{\"op\":\"move\",\"x\":\(point.x),\"y\":\(point.y),\"t\":\(t)}")
            loopback.append(micro(clock.now - sent))
            let began = clock.now
            try direct.move(point, at: t)
            let frame = direct.message(sequence: round).text
            straight.append(micro(clock.now - began))
            if frame.isEmpty { throw StudioError("no frame") }
        }
        return (loopback, straight)
    }

    /// Sets TCP_NODELAY on this process's sockets connected to `port` (the client's: CivetWeb's
    /// client gives no way to it, and writes a frame's head and body apart, so without it each
    /// body waited for the server's delayed ACK, 40 ms; browsers set it on their sockets).
    static func noDelay(toPort port: Int) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let descriptor = Int32(name) else { continue }
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let found = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) }
            }
            guard found == 0, address.sin_family == sa_family_t(AF_INET),
                Int(UInt16(bigEndian: address.sin_port)) == port
            else { continue }
            var on: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    /// The p-th percentile of `values` (0...1).
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }

    /// Prints `p50 p99 p50 p99` in microseconds: through the server, then direct.
    static func run(rounds: Int) -> Int32 {
        do {
            let (loopback, direct) = try latency(rounds: rounds)
            // The first tenth warms both paths up.
            let (a, b) = (Array(loopback.dropFirst(rounds / 10)), Array(direct.dropFirst(rounds / 10)))
            let line = String(
                format: "%.1f %.1f %.1f %.1f\n", percentile(a, 0.5), percentile(a, 0.99), percentile(b, 0.5),
                percentile(b, 0.99))
            FileHandle.standardOutput.write(Data(line.utf8))
            // The server's and the client's threads are left running: end without waiting for them.
            _exit(0)
        } catch {
            FileHandle.standardError.write(Data("stackplay-studio: --measure-latency: \(error)\n".utf8))
            return 1
        }
    }
}
