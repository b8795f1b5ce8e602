import Foundation

/// The studio's door (docs/studio.md, "Safe by default"): every request carries the printed
/// token; its `Host` names this server; an `Origin`, when sent, is this server's own page. So a
/// page from elsewhere, or one reached through a DNS name rebound to 127.0.0.1, gets nothing.
public struct StudioGuard: Sendable {
    /// 32 random bytes as 64 hex digits, read from /dev/urandom (no script can reach it).
    public let token: String
    /// The `host:port` names a request may give: the address listened on, and `localhost`
    /// and `127.0.0.1` when that is the loopback address.
    public let hosts: Set<String>

    /// `alsoAccepting`: more `Host` values (the bench's client, CivetWeb's, leaves the port out).
    public init(token: String, address: String, port: Int, alsoAccepting: [String] = []) {
        self.token = token
        var names = [address.contains(":") ? "[\(address)]" : address]
        if address == "127.0.0.1" || address == "localhost" { names += ["127.0.0.1", "localhost"] }
        hosts = Set(names.map { "\($0):\(port)".lowercased() } + alsoAccepting)
    }

    /// A fresh token from /dev/urandom.
    public static func randomToken() throws(StudioError) -> String {
        guard let file = FileHandle(forReadingAtPath: "/dev/urandom") else {
            throw StudioError("cannot read /dev/urandom for the studio's token")
        }
        defer { try? file.close() }
        let bytes = file.readData(ofLength: 32)
        guard bytes.count == 32 else { throw StudioError("cannot read 32 bytes from /dev/urandom") }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// Why `request` is refused (its status and a sentence), or nil when it may go on.
    public func refusal(of request: WebRequest) -> WebResponse? {
        guard let host = request.host, hosts.contains(host.lowercased()) else {
            return WebResponse(
                status: 403,
                body:
                    "refused: Host '\(request.host ?? "")' is not this server's own (\(hosts.sorted().joined(separator: ", ")))\n"
            )
        }
        if let origin = request.origin {
            let own = hosts.map { "http://\($0)" }
            guard own.contains(origin.lowercased()) else {
                return WebResponse(
                    status: 403, body: "refused: Origin '\(origin)' is not this server's page\n")
            }
        }
        guard let given = request.query["token"], Self.same(given, token) else {
            return WebResponse(
                status: 403, body: "refused: open the URL stackplay studio printed (it carries the token)\n")
        }
        return nil
    }

    /// Equal strings, compared in time that does not depend on where they differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for (p, q) in zip(x, y) { difference |= p ^ q }
        return difference == 0
    }
}

/// The folders the studio was given: it reads and writes files inside them only.
public struct StudioFolders: Sendable {
    /// Absolute, resolved (symbolic links followed) folder paths.
    public let roots: [String]

    public init(_ paths: [String]) throws(StudioError) {
        var roots: [String] = []
        for path in paths {
            var folder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &folder) else {
                throw StudioError("\(path): no such file or folder")
            }
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
            roots.append(folder.boolValue ? absolute : (absolute as NSString).deletingLastPathComponent)
        }
        self.roots = roots
    }

    /// `path` (absolute, or relative to the first folder) resolved, when it is inside one of the
    /// folders; nil otherwise. A file that does not exist yet is resolved through its folder.
    public func inside(_ path: String) -> String? {
        guard let first = roots.first else { return nil }
        let absolute = path.hasPrefix("/") ? path : first + "/" + path
        let url = URL(fileURLWithPath: absolute).standardizedFileURL
        let folder = url.deletingLastPathComponent().resolvingSymlinksInPath().path
        let resolved =
            FileManager.default.fileExists(atPath: url.path)
            ? url.resolvingSymlinksInPath().path : folder + "/" + url.lastPathComponent
        for root in roots
        where resolved == root || resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/") {
            return resolved
        }
        return nil
    }
}
