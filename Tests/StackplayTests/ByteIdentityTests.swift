import Foundation
import Testing

/// NFC and NFD "café": canonically equivalent, so Swift's `String ==` calls them equal; as bytes
/// (and in Lua) they are two. In scripts they are written as Lua escapes, so the test sources
/// stay ASCII.
private let nfcLua = #""caf\xC3\xA9""#
private let nfdLua = #""cafe\xCC\x81""#
private let nfc = "caf\u{E9}"
private let nfd = "cafe\u{301}"

/// How many times `needle`'s bytes occur in `text`'s: `String.contains` would match NFC in NFD.
private func occurrences(of needle: String, in text: String) -> Int {
    let (haystack, part) = (Array(text.utf8), Array(needle.utf8))
    guard !part.isEmpty, part.count <= haystack.count else { return 0 }
    return (0...(haystack.count - part.count)).filter { haystack[$0..<$0 + part.count].elementsEqual(part) }
        .count
}

/// A fresh folder with each of `files` (name → text) written on its own: a dictionary of names
/// would merge the two spellings.
private func folder(_ files: [(String, String)]) throws -> URL {
    let folder = try temporaryFolder([:])
    for (name, text) in files {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
    return folder
}

/// Issue 23 item 7 (finding 8): ids, names and file names are compared as bytes.
@Suite struct ByteIdentityTests {
    @Test
    func
        `two cards whose ids differ only in normalisation are two cards: tap, select, dismiss hit their own`()
        throws
    {
        let script = """
            local nfc, nfd = \(nfcLua), \(nfdLua)
            test("wallet", function()
              local screen = stackplay.screen {}
              local w = screen:wallet_card_stack { items = { nfc, nfd, "x" } }
              expect(#w:ids()):to_equal(3)
              w:tap(nfd); screen:settle()
              expect(w:selection() == nfd):to_equal(true)
              w:tap(nfd); screen:settle()
              expect(w:selection()):to_equal(nil)
              w:select(nfc); screen:settle()
              expect(w:selection() == nfc):to_equal(true)
              expect(w:card(nfc).y ~= w:card(nfd).y):to_equal(true)
            end)
            test("notifications", function()
              local screen = stackplay.screen {}
              local s = screen:notification_stack { items = { nfc, nfd, "x" }, dismissible = true }
              s:tap(); screen:settle()
              s:drag(nfd, { x = -200 }); screen:settle()
              local ids = s:ids()
              expect(#ids):to_equal(2)
              expect(ids[1] == nfc and ids[2] == "x"):to_equal(true)
              expect(s:dismissed()[1] == nfd):to_equal(true)
            end)
            test("components", function()
              local screen = stackplay.screen {}
              screen:wallet_card_stack { name = nfc, items = { "a" } }
              screen:wallet_card_stack { name = nfd, items = { "b" } }
              expect(#screen:snapshot().components):to_equal(2)
            end)

            """
        let directory = try folder([("x.lua", script)])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try stackplay(arguments: ["x.lua"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("3 passed, 0 failed\n"), "\(result.stdout)")
        #expect(!result.stderr.contains("given twice") && !result.stderr.contains("already on the screen"))
    }

    static let twoTests = """
        test(\(nfcLua), function() stackplay.screen {}:wallet_card_stack { items = { "a" } } print("nfc") end)
        test(\(nfdLua), function() stackplay.screen {}:wallet_card_stack { items = { "b" } } error("boom") end)

        """

    @Test
    func `two tests named NFC and NFD café are two tests: two trace files, two report lines, two testcases`()
        throws
    {
        let directory = try folder([("t.lua", Self.twoTests)])
        defer { try? FileManager.default.removeItem(at: directory) }
        let human = try stackplay(
            arguments: ["t.lua", "--trace", "traces", "--junit", "j.xml"], in: directory)
        #expect(human.status == 1)
        #expect(occurrences(of: "  ok   \(nfc)\n", in: human.stdout) == 1, "\(human.stdout)")
        #expect(occurrences(of: "  FAIL \(nfd)\n", in: human.stdout) == 1, "\(human.stdout)")
        #expect(human.stdout.hasSuffix("1 passed, 1 failed\n"))
        let traces = try FileManager.default.contentsOfDirectory(
            atPath: directory.appendingPathComponent("traces").path)
        #expect(traces.count == 2, "\(traces)")
        let junit = try String(contentsOf: directory.appendingPathComponent("j.xml"), encoding: .utf8)
        #expect(occurrences(of: " name=\"\(nfc)\" file=", in: junit) == 1, "\(junit)")
        #expect(occurrences(of: " name=\"\(nfd)\" file=", in: junit) == 1, "\(junit)")

        let json = try stackplay(arguments: ["t.lua", "--json"], in: directory)
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let names = (report?["tests"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
        #expect(names.map { Array($0.utf8) } == [Array(nfc.utf8), Array(nfd.utf8)], "\(json.stdout)")
    }

    @Test(arguments: [(nfc, "nfc", 1), (nfd, "FAIL", 0)])
    func `--filter with one spelling runs only the test of those bytes`(
        filter: String, marker: String, passed: Int
    )
        throws
    {
        let directory = try folder([("t.lua", Self.twoTests)])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try stackplay(arguments: ["t.lua", "--filter", filter], in: directory)
        #expect(result.stdout.hasSuffix("\(passed) passed, \(1 - passed) failed\n"), "\(result.stdout)")
        #expect(occurrences(of: marker, in: result.stdout) == 1, "\(result.stdout)")
    }

    @Test
    func `two files named NFC and NFD café are two files: two headers, two suites, merged shards agree`()
        throws
    {
        let directory = try folder([
            ("d/\(nfc).lua", "test('one', function() end)\n"),
            ("d/\(nfd).lua", "test('two', function() error('x') end)\n"),
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let human = try stackplay(arguments: ["d", "--junit", "j.xml"], in: directory)
        #expect(human.status == 1)
        #expect(occurrences(of: "d/\(nfc).lua\n", in: human.stdout) == 1, "\(human.stdout)")
        #expect(occurrences(of: "d/\(nfd).lua\n", in: human.stdout) == 1, "\(human.stdout)")
        let junit = try String(contentsOf: directory.appendingPathComponent("j.xml"), encoding: .utf8)
        #expect(occurrences(of: "<testsuite name=", in: junit) == 2, "\(junit)")

        for shard in ["1/2", "2/2"] {
            let run = try stackplay(arguments: ["d", "--shard", shard, "--json"], in: directory)
            try Data(run.stdout.utf8).write(to: directory.appendingPathComponent("s\(shard.first!).json"))
        }
        let merged = try stackplay(arguments: ["merge", "s1.json", "s2.json"], in: directory)
        #expect(!merged.stderr.contains("is in both"), "\(merged.stderr)")
        #expect(merged.stdout.hasSuffix("1 passed, 1 failed\n"), "\(merged.stdout)")
        #expect(occurrences(of: "d/\(nfc).lua\n", in: merged.stdout) == 1, "\(merged.stdout)")
    }

    @Test func `a golden trace of NFC café does not match a run of NFD café`() throws {
        let record =
            "test('t', function() stackplay.screen {}:wallet_card_stack { items = { \(nfcLua) } } end)\n"
        let directory = try folder([("x.lua", record)])
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try stackplayRecording(["x.lua", "--golden", "gold"], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        try Data(record.replacingOccurrences(of: nfcLua, with: nfdLua).utf8)
            .write(to: directory.appendingPathComponent("x.lua"))
        let second = try stackplay(arguments: ["x.lua", "--golden", "gold"], in: directory)
        #expect(second.status == 1, "\(second.stdout)")
        #expect(second.stderr.contains("the run does not match its golden traces"), "\(second.stderr)")
        #expect(second.stderr.contains("field 'items' differs"), "\(second.stderr)")
        #expect(second.stderr.contains("expected: [caf\\u{E9}]"), "\(second.stderr)")
        #expect(second.stderr.contains("actual: [cafe\\u{301}]"), "\(second.stderr)")
    }

    @Test func `a Lua table with NFC and NFD café as keys is refused by name, never one key lost`() throws {
        let script = """
            test("t", function()
              stackplay.screen {}:wallet_card_stack { items = { { id = "a", [\(nfcLua)] = 1, [\(nfdLua)] = 2 } } }
            end)

            """
        let directory = try folder([("x.lua", script)])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try stackplay(arguments: ["x.lua"], in: directory)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "x.lua:2: bad argument #1 to 'wallet_card_stack' (field 'items[1]': keys '"))
        #expect(
            result.stderr.contains("are one key to Swift (canonically equivalent): give them one spelling)"))
        #expect(result.stderr.contains("'caf\\u{E9}'") && result.stderr.contains("'cafe\\u{301}'"))
    }

    @Test
    func `two tests whose trace names collide are refused by name under --trace, not one file for both`()
        throws
    {
        // The stem's 32-bit hash collides for these two (found by a search); the readable part is
        // the same lower-case text.
        let (first, second) = ("AbCdEfgHiJKlmNopQrst", "aBcDEFGhIJkLmNoPQrst")
        let script = """
            test("\(first)", function() stackplay.screen {}:wallet_card_stack { items = { "a" } } end)
            test("\(second)", function() stackplay.screen {}:wallet_card_stack { items = { "b" } } end)

            """
        let directory = try folder([("x.lua", script)])
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = try stackplay(arguments: ["x.lua"], in: directory)
        #expect(plain.status == 0, "\(plain.stderr)")
        let traced = try stackplay(arguments: ["x.lua", "--trace", "traces"], in: directory)
        #expect(traced.status == 1)
        #expect(
            traced.stderr.contains(
                "stackplay: 'x.lua: \(first)' and 'x.lua: \(second)' would share the trace file "
                    + "x-lua--abcdefghijklmnopqrst-fe1386a6.jsonl: rename one of them (no trace was written)"),
            "\(traced.stderr)")
        let written =
            (try? FileManager.default.contentsOfDirectory(
                atPath: directory.appendingPathComponent("traces").path)) ?? []
        #expect(written.isEmpty, "\(written)")
    }
}
