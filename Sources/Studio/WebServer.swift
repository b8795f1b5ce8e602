import CCivetweb
import Foundation

/// One HTTP request as the studio's handler sees it: CivetWeb parsed it (no HTTP parsing here).
public struct WebRequest: Sendable {
    public var method: String
    /// The path, URL-decoded, without the query.
    public var path: String
    /// The query's parameters, URL-decoded (`token=...&file=...`).
    public var query: [String: String]
    public var host: String?
    public var origin: String?
    public var contentLength: Int64

    public init(
        method: String, path: String, query: [String: String], host: String?, origin: String?,
        contentLength: Int64 = 0
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.host = host
        self.origin = origin
        self.contentLength = contentLength
    }

    /// `a=1&b=x%20y` as a dictionary (a key given twice keeps its last value).
    public static func parameters(_ query: String) -> [String: String] {
        var out: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = decode(String(parts[0]))
            out[key] = parts.count > 1 ? decode(String(parts[1])) : ""
        }
        return out
    }

    private static func decode(_ text: String) -> String {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text
    }
}

/// What a request gets back.
public struct WebResponse: Sendable {
    public var status: Int32
    public var contentType: String
    public var body: [UInt8]

    public init(status: Int32, contentType: String = "text/plain; charset=utf-8", body: String) {
        self.status = status
        self.contentType = contentType
        self.body = Array(body.utf8)
    }
}

/// An open WebSocket: what the handler answers to and pushes to.
public final class WebSocket: @unchecked Sendable, Hashable {
    fileprivate let connection: OpaquePointer
    /// Pushes from other threads and answers from the connection's own thread take turns.
    private let lock = NSLock()
    fileprivate var isOpen = true

    fileprivate init(_ connection: OpaquePointer) { self.connection = connection }

    /// Sends one text message; false once the socket is closed.
    @discardableResult
    public func send(_ text: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard isOpen else { return false }
        var bytes = Array(text.utf8)
        mg_lock_connection(connection)
        let written = mg_websocket_write(connection, Int32(MG_WEBSOCKET_OPCODE_TEXT), &bytes, bytes.count)
        mg_unlock_connection(connection)
        return written > 0
    }

    fileprivate func close() {
        lock.lock()
        isOpen = false
        lock.unlock()
    }

    public static func == (a: WebSocket, b: WebSocket) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// What the server asks of the studio: whether to refuse a request before anything else, the
/// answer to a plain request, and the WebSocket's messages.
public protocol WebHandler: AnyObject, Sendable {
    /// A response that refuses the request (403, 413, ...), or nil to let it through. Asked of
    /// every request, WebSocket upgrades included, before any other handler runs.
    func refusal(of request: WebRequest) -> WebResponse?
    func respond(to request: WebRequest) -> WebResponse
    func opened(_ socket: WebSocket)
    /// A text message. Returns false to close the socket.
    func received(_ text: String, from socket: WebSocket) -> Bool
    func closed(_ socket: WebSocket)
}

/// The bounds of what a client may ask of the server (docs/studio.md, "Safe by default").
public struct WebLimits: Sendable {
    /// Worker threads: each serves one connection at a time, so this bounds open connections.
    public var threads = 8
    /// Time to read a request, and the idle time of a kept-alive connection, in ms.
    public var requestTimeout = 10_000
    public var keepAliveTimeout = 5_000
    /// A WebSocket with no message for this long is closed (the page opens a new one).
    public var webSocketTimeout = 600_000
    /// The most bytes of a request's head (request line and headers).
    public var maximumHead = 16_384
    /// The most bytes of one WebSocket message, and of a request's body.
    public var maximumMessage = 1 << 20

    public init() {}
}

/// An HTTP and WebSocket server over CivetWeb: it listens on one address, refuses what the
/// handler refuses, and hands the rest to the handler on CivetWeb's worker threads.
public final class WebServer: @unchecked Sendable {
    private let handler: any WebHandler
    private let limits: WebLimits
    private var context: OpaquePointer?
    private let lock = NSLock()
    private var sockets: [OpaquePointer: WebSocket] = [:]
    /// The port it listens on (the one asked for, or the one the system gave for 0).
    public private(set) var port: Int = 0

    public init(handler: any WebHandler, limits: WebLimits = WebLimits()) {
        self.handler = handler
        self.limits = limits
    }

    /// Starts listening on `address:port` (port 0: any free port). Throws a message when it cannot.
    public func start(address: String, port: Int) throws(StudioError) {
        _ = mg_init_library(UInt32(MG_FEATURES_WEBSOCKET))
        let host = address.contains(":") ? "[\(address)]" : address
        let settings = [
            "listening_ports", "\(host):\(port)",
            "num_threads", "\(limits.threads)",
            "request_timeout_ms", "\(limits.requestTimeout)",
            "keep_alive_timeout_ms", "\(limits.keepAliveTimeout)",
            "websocket_timeout_ms", "\(limits.webSocketTimeout)",
            "max_request_size", "\(limits.maximumHead)",
            "enable_keep_alive", "yes",
            // Without it a frame waits for the client's delayed ACK: 40 ms a pointer move.
            "tcp_nodelay", "1",
            "enable_directory_listing", "no",
        ]
        var pointers: [UnsafePointer<CChar>?] = settings.map { UnsafePointer(strdup($0)) }
        pointers.append(nil)
        defer { for pointer in pointers { free(UnsafeMutableRawPointer(mutating: pointer)) } }
        var callbacks = mg_callbacks()
        callbacks.begin_request = { connection in
            guard let connection, let server = WebServer.server(of: connection) else { return 0 }
            return server.begin(connection)
        }
        // CivetWeb's own messages (a port in use) become the error thrown below.
        callbacks.log_message = { _, _ in 1 }
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard let context = mg_start(&callbacks, me, &pointers) else {
            throw StudioError("cannot listen on \(host):\(port) (in use, or not an address of this machine)")
        }
        self.context = context
        var ports = [mg_server_port](repeating: mg_server_port(), count: 4)
        if mg_get_server_ports(context, 4, &ports) > 0 { self.port = Int(ports[0].port) }
        mg_set_request_handler(
            context, "/",
            { connection, data in
                guard let connection, let data else { return 500 }
                return Unmanaged<WebServer>.fromOpaque(data).takeUnretainedValue().serve(connection)
            }, me)
        mg_set_websocket_handler(
            context, "/ws", nil,
            { connection, data in
                guard let connection, let data else { return }
                Unmanaged<WebServer>.fromOpaque(data).takeUnretainedValue().ready(connection)
            },
            { connection, bits, bytes, count, data in
                guard let connection, let data else { return 0 }
                let server = Unmanaged<WebServer>.fromOpaque(data).takeUnretainedValue()
                return server.message(connection, opcode: bits & 0x0f, bytes: bytes, count: count) ? 1 : 0
            },
            { connection, data in
                guard let connection, let data else { return }
                Unmanaged<WebServer>.fromOpaque(data).takeUnretainedValue().gone(connection)
            }, me)
    }

    /// Stops listening and closes every connection.
    public func stop() {
        if let context { mg_stop(context) }
        context = nil
    }

    private static func server(of connection: OpaquePointer) -> WebServer? {
        guard let data = mg_get_user_data(mg_get_context(connection)) else { return nil }
        return Unmanaged<WebServer>.fromOpaque(data).takeUnretainedValue()
    }

    private func request(_ connection: OpaquePointer) -> WebRequest? {
        guard let info = mg_get_request_info(connection)?.pointee else { return nil }
        let header = { (name: String) in mg_get_header(connection, name).map { String(cString: $0) } }
        return WebRequest(
            method: info.request_method.map { String(cString: $0) } ?? "",
            path: info.local_uri.map { String(cString: $0) } ?? "/",
            query: info.query_string.map { WebRequest.parameters(String(cString: $0)) } ?? [:],
            host: header("Host"), origin: header("Origin"), contentLength: info.content_length)
    }

    /// Every request, first: refused ones are answered here (CivetWeb then goes on to the next).
    private func begin(_ connection: OpaquePointer) -> Int32 {
        guard let request = request(connection) else {
            return write(WebResponse(status: 400, body: "bad request\n"), to: connection)
        }
        if request.contentLength > Int64(limits.maximumMessage) {
            return write(
                WebResponse(status: 413, body: "a request body is at most \(limits.maximumMessage) bytes\n"),
                to: connection)
        }
        if let refusal = handler.refusal(of: request) { return write(refusal, to: connection) }
        return 0
    }

    private func serve(_ connection: OpaquePointer) -> Int32 {
        guard let request = request(connection) else {
            return write(WebResponse(status: 400, body: "bad request\n"), to: connection)
        }
        return write(handler.respond(to: request), to: connection)
    }

    @discardableResult
    private func write(_ response: WebResponse, to connection: OpaquePointer) -> Int32 {
        mg_response_header_start(connection, response.status)
        mg_response_header_add(connection, "Content-Type", response.contentType, -1)
        mg_response_header_add(connection, "Content-Length", "\(response.body.count)", -1)
        mg_response_header_add(connection, "Cache-Control", "no-store", -1)
        mg_response_header_add(connection, "X-Content-Type-Options", "nosniff", -1)
        mg_response_header_add(connection, "Referrer-Policy", "no-referrer", -1)
        mg_response_header_send(connection)
        var body = response.body
        if !body.isEmpty { mg_write(connection, &body, body.count) }
        return response.status
    }

    private func ready(_ connection: OpaquePointer) {
        let socket = WebSocket(connection)
        lock.lock()
        sockets[connection] = socket
        lock.unlock()
        handler.opened(socket)
    }

    private func message(
        _ connection: OpaquePointer, opcode: Int32, bytes: UnsafeMutablePointer<CChar>?, count: Int
    )
        -> Bool
    {
        lock.lock()
        let socket = sockets[connection]
        lock.unlock()
        guard let socket else { return false }
        switch Int(opcode) {
        case MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE: return false
        case MG_WEBSOCKET_OPCODE_TEXT:
            guard count <= limits.maximumMessage else {
                socket.send(
                    "{\"type\":\"error\",\"message\":\"a message is at most \(limits.maximumMessage) bytes\"}"
                )
                return false
            }
            let text =
                bytes.map { pointer in
                    pointer.withMemoryRebound(to: UInt8.self, capacity: count) {
                        String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
                    }
                } ?? ""
            return handler.received(text, from: socket)
        default: return true
        }
    }

    private func gone(_ connection: OpaquePointer) {
        lock.lock()
        let socket = sockets.removeValue(forKey: connection)
        lock.unlock()
        guard let socket else { return }
        socket.close()
        handler.closed(socket)
    }

    /// Sends `text` to every open WebSocket.
    public func broadcast(_ text: String) {
        lock.lock()
        let all = Array(sockets.values)
        lock.unlock()
        for socket in all { socket.send(text) }
    }
}

/// A studio failure with its message (an address in use, a file outside the folders).
public struct StudioError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
