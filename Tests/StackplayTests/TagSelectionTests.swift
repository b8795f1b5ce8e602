import Foundation
import Testing

/// Tags, filters and the checks on test names and tags; a selection that matches nothing.
@Suite struct TagSelectionTests {

    // MARK: 4. Tags and selection

    let taggedScript = """
        test("rtl swipe", { tags = { "rtl", "smoke" } }, function() end)
        test("slow settle", { tags = { "slow" } }, function() end)
        test("plain", function() end)
        test("rtl slow", { tags = { "rtl", "slow" } }, function() end)

        """

    @Test func tagsSelectAndExcludeAndFiltersAddUp() throws {
        let folder = try temporaryFolder(["x.lua": taggedScript])
        defer { try? FileManager.default.removeItem(at: folder) }
        func list(_ arguments: String...) throws -> [String] {
            let run = try stackplay(arguments: ["--list"] + arguments + ["x.lua"], in: folder)
            #expect(run.status == 0)
            #expect(run.stderr == "")
            return run.stdout.split(separator: "\n").map(String.init)
        }
        #expect(
            try list() == [
                "x.lua: rtl swipe (tags: rtl, smoke)", "x.lua: slow settle (tags: slow)", "x.lua: plain",
                "x.lua: rtl slow (tags: rtl, slow)",
            ])
        #expect(
            try list("--tag", "rtl") == [
                "x.lua: rtl swipe (tags: rtl, smoke)", "x.lua: rtl slow (tags: rtl, slow)",
            ])
        #expect(
            try list("--tag", "smoke,slow", "--exclude-tag", "rtl") == ["x.lua: slow settle (tags: slow)"])
        #expect(try list("--exclude-tag", "slow") == ["x.lua: rtl swipe (tags: rtl, smoke)", "x.lua: plain"])
        #expect(
            try list("--filter", "plain", "--filter", "swipe") == [
                "x.lua: rtl swipe (tags: rtl, smoke)", "x.lua: plain",
            ])

        let run = try stackplay(arguments: ["--tag", "slow", "x.lua"], in: folder)
        #expect(run.status == 0)
        #expect(run.stdout == "x.lua\n  ok   slow settle\n  ok   rtl slow\n2 passed, 0 failed\n")
    }

    @Test(arguments: [["--list"], []])
    func aSelectionThatMatchesNothingExitsOne(list: [String]) throws {
        let folder = try temporaryFolder(["x.lua": taggedScript])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(
            arguments: list + ["--filter", "nothing", "--tag", "smoke", "x.lua"], in: folder)
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == "stackplay: no test matches --filter 'nothing', --tag 'smoke'\n")
    }

    @Test(arguments: [
        ("test('', function() end)", "x.lua:1: bad argument #1 to 'test' (the test's name is empty)"),
        (
            "test('t', { tgas = {} }, function() end)",
            "x.lua:1: bad argument #2 to 'test' (unknown option \"tgas\" (did you mean 'tags'?))"
        ),
        (
            "test('t', { tags = { 'a b' } }, function() end)",
            "x.lua:1: bad argument #2 to 'test' (field 'tags': tag 1 must be a word"
        ),
    ])
    func testNamesAndTagsAreChecked(script: String, message: String) throws {
        let run = try runScript(script + "\n")
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("stackplay: " + message), "\(run.stderr)")
    }

    @Test func anEmptyScriptFails() throws {
        let run = try runScript("-- nothing yet\n\n")
        #expect(run.status == 1)
        #expect(run.stdout == "x.lua\n  FAIL (whole script)\n0 passed, 1 failed\n")
        #expect(
            run.stderr.hasPrefix(
                "stackplay: x.lua: the script is empty: it defines no tests and runs no code\n"))
    }
}
