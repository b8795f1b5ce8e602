import Foundation
import StackModel
import Testing
import Traces

@testable import Studio

/// The studio's door: the token, the Host and the Origin (docs/studio.md, "Safe by default").
@Suite struct StudioGuardTests {
    let door = StudioGuard(token: String(repeating: "ab", count: 32), address: "127.0.0.1", port: 4321)

    func request(host: String?, origin: String? = nil, token: String? = String(repeating: "ab", count: 32))
        -> WebRequest
    {
        WebRequest(
            method: "GET", path: "/", query: token.map { ["token": $0] } ?? [:], host: host, origin: origin)
    }

    @Test func `the printed token, the server's own Host and no Origin get in`() {
        #expect(door.refusal(of: request(host: "127.0.0.1:4321")) == nil)
        #expect(door.refusal(of: request(host: "localhost:4321", origin: "http://localhost:4321")) == nil)
    }

    @Test func `a request without the token, or with another, gets 403`() {
        #expect(door.refusal(of: request(host: "127.0.0.1:4321", token: nil))?.status == 403)
        #expect(
            door.refusal(of: request(host: "127.0.0.1:4321", token: String(repeating: "ab", count: 31)))?
                .status == 403)
        #expect(door.refusal(of: request(host: "127.0.0.1:4321", token: ""))?.status == 403)
    }

    @Test func `a foreign Host (DNS rebinding) or Origin is refused, token or not`() throws {
        let rebound = try #require(door.refusal(of: request(host: "rebound.example:4321")))
        #expect(rebound.status == 403)
        #expect(String(decoding: rebound.body, as: UTF8.self).contains("Host 'rebound.example:4321'"))
        #expect(door.refusal(of: request(host: nil))?.status == 403)
        #expect(door.refusal(of: request(host: "127.0.0.1:9999"))?.status == 403)
        #expect(
            door.refusal(of: request(host: "127.0.0.1:4321", origin: "http://evil.example"))?.status == 403)
        #expect(door.refusal(of: request(host: "127.0.0.1:4321", origin: "null"))?.status == 403)
    }

    @Test func `another address is its own Host, and localhost is not one of its names`() {
        let wide = StudioGuard(token: "t", address: "192.168.1.5", port: 80)
        #expect(wide.hosts == ["192.168.1.5:80"])
        #expect(
            wide.refusal(
                of: WebRequest(
                    method: "GET", path: "/", query: ["token": "t"], host: "localhost:80", origin: nil))
                != nil)
    }

    @Test func `tokens are 64 hex digits from /dev/urandom, a new one each time`() throws {
        let (a, b) = (try StudioGuard.randomToken(), try StudioGuard.randomToken())
        #expect(a.count == 64 && a.allSatisfy(\.isHexDigit))
        #expect(a != b)
    }

    @Test func `query parameters are decoded`() {
        #expect(
            WebRequest.parameters("token=a%20b&file=x.lua&test=a+drag&flag") == [
                "token": "a b", "file": "x.lua", "test": "a drag", "flag": "",
            ])
    }
}

/// The studio reads and writes only inside the folders it was given.
@Suite struct StudioFoldersTests {
    @Test func `a path inside a folder resolves; one outside, by .. or by a link, does not`() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "studio-folders-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/out", withDestinationPath: "/etc")
        let folders = try StudioFolders([folder.path])
        #expect(folders.inside("new.lua") != nil)
        #expect(folders.inside("sub/new.lua")?.hasSuffix("/sub/new.lua") == true)
        #expect(folders.inside("../new.lua") == nil)
        #expect(folders.inside("sub/../../new.lua") == nil)
        #expect(folders.inside("/etc/passwd") == nil)
        #expect(folders.inside("out/passwd") == nil)
        #expect(throws: StudioError.self) { try StudioFolders([folder.path + "/missing"]) }
    }
}

/// The live screen is the real model: pointer events in, frames out, guides from its constants.
@Suite struct LiveScreenTests {
    static func stack(direction: String = "ltr") throws -> LiveScreen {
        let settings = ScreenSettings(layoutDirection: direction == "rtl" ? .rightToLeft : .leftToRight)
        let component: JSONValue = try JSONParser.parse(
            """
            {"kind":"notification_stack","name":"notifications","items":[{"id":"messages","height":70,"label":"messages"},\
            {"id":"calendar","height":70,"label":"calendar"},{"id":"mail","height":70,"label":"mail"}],"expanded":true,\
            "title":"Notifications","spacing":10,"peek":10,"dismissible":true,"x":16,"y":0,"width":358}
            """)
        return try LiveScreen(
            trace: LiveScreen.header(settings: settings, components: [component]), events: nil, origin: "test"
        )
    }

    static func ids(_ live: LiveScreen) -> [String] {
        live.screen.snapshot().components[0].cards.map(\.id)
    }

    /// The calendar card's middle, wherever the model put it.
    static func middle(_ live: LiveScreen, _ id: String) throws -> Point {
        let card = try #require(live.screen.snapshot().components[0].cards.first { $0.id == id })
        return Point(x: card.frame.midX, y: card.frame.midY)
    }

    func drag(_ live: LiveScreen, _ id: String, by dx: Double) throws {
        let start = try Self.middle(live, id)
        try live.down(start, at: 10)
        for step in 1...12 {
            try live.move(Point(x: start.x + dx * Double(step) / 12, y: start.y), at: 10 + Double(step) / 60)
        }
        try live.up(at: 10.25)
        for frame in 0..<200 where live.message(sequence: 0)["resting"] != .bool(true) {
            try live.frame(at: 10.25 + Double(frame) / 60)
        }
    }

    @Test func `N13: a 120 pt drag to the left clears the card; 100 pt does not`() throws {
        let live = try Self.stack()
        try drag(live, "calendar", by: -100)
        #expect(Self.ids(live) == ["messages", "calendar", "mail"])
        try drag(live, "calendar", by: -120)
        #expect(Self.ids(live) == ["messages", "mail"])
        #expect(live.message(sequence: 1)["resting"] == .bool(true))
    }

    @Test func `N13 in right to left: the toggle turns the screen, and a drag to the right clears`() throws {
        let live = try Self.stack()
        try live.set("layout_direction", .string("rtl"), at: 1)
        try drag(live, "mail", by: 120)
        #expect(Self.ids(live) == ["messages", "calendar"])
    }

    @Test func `the 110 pt guide shows while a finger drags a card, on the side a swipe clears`() throws {
        for (direction, sign) in [("ltr", -1.0), ("rtl", 1.0)] {
            let live = try Self.stack(direction: direction)
            #expect(live.guides().isEmpty)
            let start = try Self.middle(live, "calendar")
            try live.down(start, at: 0)
            let guide = try #require(live.guides().first)
            #expect(guide["axis"] == .string("x"))
            #expect(guide["at"] == .number(start.x + sign * NotificationStack.swipeThreshold))
            try live.up(at: 0.1)
            #expect(live.guides().isEmpty)
        }
    }

    @Test func `a pause while nothing moves costs the screen no time`() throws {
        let live = try Self.stack()
        try live.frame(at: 5)
        try live.frame(at: 500)
        #expect(live.screen.now == 0)
    }

    @Test func `settings: Reduce Motion, Dynamic Type and a device the matrix knows; a bad one is an error`()
        throws
    {
        let live = try Self.stack()
        try live.set("reduce_motion", .bool(true), at: 0)
        try live.set("dynamic_type", .string("AX5"), at: 0)
        try live.set("device", .string("iphone-se"), at: 0)
        #expect(live.screen.settings.reduceMotion)
        #expect(live.screen.settings.dynamicTypeSize == .accessibility5)
        #expect(live.screen.settings.size == Size(width: 375, height: 667))
        try live.set("width", .number(500), at: 0)
        #expect(live.screen.settings.size == Size(width: 500, height: 667))
        #expect(throws: StudioError.self) { try live.set("height", .number(-1), at: 0) }
        #expect(throws: StudioError.self) { try live.set("device", .string("iphone-99"), at: 0) }
        #expect(throws: StudioError.self) { try live.set("layout_direction", .string("up"), at: 0) }
    }

    @Test func `Record starts again from the components at rest and records what follows`() throws {
        let live = try Self.stack()
        try drag(live, "calendar", by: -120)
        try live.record(true)
        #expect(live.recordedTrace()?.steps.isEmpty == true)
        try drag(live, "mail", by: -120)
        let trace = try #require(live.recordedTrace())
        #expect(trace.steps.count > 10)
        #expect(trace.settings.now == 0)
        try live.record(false)
        #expect(live.recordedTrace() == nil)
    }
}

/// The page is the files in Sources/Studio/Page/.
@Suite struct EmbeddedPageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func `the embedded page is the files in Sources/Studio/Page, byte for byte`() throws {
        let onDisk = try FileManager.default.contentsOfDirectory(
            atPath: Self.root.appendingPathComponent("Sources/Studio/Page").path)
        #expect(Set(onDisk.map { "Sources/Studio/Page/\($0)" }) == Set(EmbeddedPage.files.map(\.path)))
        for file in EmbeddedPage.files {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file.path), encoding: .utf8)
            #expect(text == file.text + "\n", "\(file.path) changed: run `make viewer`")
        }
        #expect(StudioPage.html.contains("#screen") && !StudioPage.html.contains("/*SCRIPT*/"))
    }

    @Test func `the command line: a bad port or option is an error, no path is the current folder`() throws {
        #expect(try StudioCommand.parse([]).paths == ["."])
        #expect(try StudioCommand.parse(["--port", "8080", "x"]).port == 8080)
        #expect(throws: StudioError.self) { try StudioCommand.parse(["--port", "http"]) }
        #expect(throws: StudioError.self) { try StudioCommand.parse(["--port"]) }
        #expect(throws: StudioError.self) { try StudioCommand.parse(["--open"]) }
    }
}
