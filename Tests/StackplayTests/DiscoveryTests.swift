import Foundation
import Testing

/// End-to-end: discovery survives link loops, FIFOs and names that are not UTF-8.
@Suite struct DiscoveryTests {
    static let passing = "test('t', function() expect(1):to_equal(1) end)"

    @Test("links to folders are not followed: two links to '.' and a self-link run each script once")
    func linksToFolders() throws {
        let folder = try temporaryFolder(["s/a.lua": Self.passing, "s/sub/b.lua": Self.passing])
        defer { try? FileManager.default.removeItem(at: folder) }
        let s = folder.appendingPathComponent("s").path
        #expect(symlink(".", "\(s)/l1") == 0)
        #expect(symlink(".", "\(s)/l2") == 0)
        #expect(symlink("..", "\(s)/sub/up") == 0)
        #expect(symlink("loop", "\(s)/loop") == 0)
        let run = try stackplay(arguments: ["--list", "s"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "s/a.lua: t\ns/sub/b.lua: t\n")
        #expect(run.stderr == "")
    }

    @Test("a link to a script runs it under the link's name")
    func linksToFiles() throws {
        let folder = try temporaryFolder(["s/a.lua": Self.passing])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(symlink("a.lua", folder.appendingPathComponent("s/b.lua").path) == 0)
        let run = try stackplay(arguments: ["--list", "s"], in: folder)
        #expect(run.stdout == "s/a.lua: t\ns/b.lua: t\n")
    }

    @Test("a FIFO named x.lua is skipped with a note, and the run goes on")
    func fifoIsSkipped() throws {
        let folder = try temporaryFolder(["s/a.lua": Self.passing])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(mkfifo(folder.appendingPathComponent("s/x.lua").path, 0o644) == 0)
        let run = try stackplay(arguments: ["s"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "stackplay: skipped s/x.lua: it is not a regular file\n")
        #expect(run.stdout.hasSuffix("1 passed, 0 failed\n"))

        let named = try stackplay(arguments: ["s/x.lua"], in: folder)
        #expect(named.status == 64)
        #expect(named.stderr.hasPrefix("stackplay: not a regular file or a folder: s/x.lua\n"))
    }

    @Test("a script whose name is not UTF-8 runs and is reported with the byte escaped")
    func nonUTF8Name() throws {
        let folder = try temporaryFolder(["s/a.lua": Self.passing])
        defer { try? FileManager.default.removeItem(at: folder) }
        var path = Array(folder.appendingPathComponent("s/b").path.utf8) + [0xFF] + Array(".lua".utf8) + [0]
        let descriptor = path.withUnsafeMutableBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
        }
        #expect(descriptor >= 0)
        let script = "test('t', function() expect(1):to_equal(2) end)\n"
        #expect(write(descriptor, script, script.utf8.count) == script.utf8.count)
        close(descriptor)
        let run = try stackplay(arguments: ["s"], in: folder)
        #expect(run.status == 1)
        #expect(run.stdout == "s/a.lua\n  ok   t\ns/b\\xff.lua\n  FAIL t\n1 passed, 1 failed\n")
        #expect(run.stderr.contains("s/b\\xff.lua:1: values differ"))
    }
}
