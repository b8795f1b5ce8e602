import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// `only(...)` left in a file, and `--repeat` finding tests that differ between runs.
@Suite struct FocusAndRepeatTests {

    @Test func `only is refused with --forbid-only and in CI`() throws {
        let folder = try temporaryFolder([
            "o.lua": "test('a', function() end)\nonly('b', function() end)\n"
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("o.lua").path
        let plain = try stackplay(path)
        #expect(plain.status == 0)
        let forbid = try stackplay("--forbid-only", path)
        #expect(forbid.status == 1)
        #expect(forbid.stderr.contains("o.lua:2: only(...) is not allowed with --forbid-only"))
        let ci = try stackplay(arguments: [path], environment: ["CI": "true"])
        #expect(ci.status == 1)
        #expect(ci.stderr.contains("only(...) is not allowed in CI"))
        let flag = try stackplay("--ci", path)
        #expect(flag.status == 1)
    }

    @Test func `repeat runs every test again and a stable test passes`() throws {
        let folder = try temporaryFolder([
            "s.lua": "test('stable', function() print(math.random(1, 10)) end)"
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay("--repeat", "5", folder.appendingPathComponent("s.lua").path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("1 passed, 0 failed"))
        #expect(try stackplay("--repeat", "0", "scripts").status == 64)
    }
}
