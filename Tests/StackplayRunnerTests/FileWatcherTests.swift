import Foundation
import Testing

@testable import StackplayRunner

/// The watcher behind `stackplay --watch` and the studio: inotify rounds, atomic saves, new
/// folders, stop; and which scripts a change re-runs.
@Suite struct FileWatcherTests {
    /// A new folder holding `files` (paths under it, made with their folders).
    func folder(_ files: [String: String]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("watch-\(UUID().uuidString)")
            .resolvingSymlinksInPath()
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (path, text) in files.sorted(by: { $0.key < $1.key }) {
            try write(root.path + "/" + path, text)
        }
        return root.path
    }

    /// Writes `text` to `path` (making its folder) from a child process, never from this one:
    /// the suite forks workers without exec in other tests meanwhile, and a fork that copied a
    /// descriptor of ours open for writing closes it whenever that worker ends, which inotify
    /// reports as a save made long after the write (a flaky extra file in a round).
    func write(_ path: String, _ text: String) throws {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", #"mkdir -p "$(dirname "$1")" && printf %s "$2" > "$1""#, "sh", path, text]
        try shell.run()
        shell.waitUntilExit()
        try #require(shell.terminationStatus == 0, "writing \(path)")
    }

    @Test func `a save is one round naming the file, after a quiet moment`() throws {
        let root = try folder(["a.lua": "x", "sub/b.lua": "y"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let watcher = try FileWatcher([root])
        try write(root + "/sub/b.lua", "changed")
        try write(root + "/sub/b.lua", "changed again")  // two writes, one round
        #expect(watcher.wait(quiet: 0.05) == [root + "/sub/b.lua"])
    }

    @Test func `an editor's atomic save (a temporary file renamed over) is a save of the file`() throws {
        let root = try folder(["a.lua": "x"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let watcher = try FileWatcher([root + "/a.lua"])
        try write(root + "/.a.lua.swp", "new")
        try write(root + "/other.lua", "not watched: only a.lua was given")
        #expect(rename(root + "/.a.lua.swp", root + "/a.lua") == 0)
        #expect(watcher.wait(quiet: 0.05) == [root + "/a.lua"])
    }

    @Test func `a folder made later is watched, and what it holds counts as changed`() throws {
        let root = try folder(["a.lua": "x"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let watcher = try FileWatcher([root])
        try FileManager.default.createDirectory(
            atPath: root + "/new/deeper", withIntermediateDirectories: true)
        try write(root + "/new/deeper/c.lua", "c")
        #expect(watcher.wait(quiet: 0.1)?.contains(root + "/new/deeper/c.lua") == true)
        try write(root + "/new/deeper/c.lua", "again")
        #expect(watcher.wait(quiet: 0.05) == [root + "/new/deeper/c.lua"])
    }

    @Test func `stop wakes a waiting watcher, which returns nil`() throws {
        let root = try folder(["a.lua": "x"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let watcher = try FileWatcher([root])
        let box = UncheckedBox(watcher)
        Thread.detachNewThread {
            usleep(50_000)
            box.value.stop()
        }
        #expect(watcher.wait() == nil)
    }

    @Test func `a path that is not there is an error naming it`() {
        #expect(throws: FileWatcher.Failure.self) { try FileWatcher(["/nonexistent-\(UUID().uuidString)"]) }
    }

    @Test func `a changed helper re-runs every script that requires it, directly or not`() throws {
        let root = try folder([
            "a.lua": "local h = require \"helpers.lock\"\n", "b.lua": "require(\"helpers.outer\")\n",
            "c.lua": "print(1)\n", "helpers/lock.lua": "return {}\n",
            "helpers/outer.lua": "return require \"helpers.lock\"\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let map = AffectedScripts(try AffectedScripts.scripts(in: [root], root: nil))
        #expect(map.scripts.map(\.path) == [root + "/a.lua", root + "/b.lua", root + "/c.lua"])
        #expect(
            map.affected(by: [root + "/helpers/lock.lua"]).map(\.path) == [root + "/a.lua", root + "/b.lua"])
        #expect(map.affected(by: [root + "/helpers/outer.lua"]).map(\.path) == [root + "/b.lua"])
        #expect(map.affected(by: [root + "/./c.lua"]).map(\.path) == [root + "/c.lua"])
        #expect(map.affected(by: [root + "/unrelated.txt"]).isEmpty)
        #expect(
            map.helpers(in: [root + "/helpers/lock.lua", root + "/c.lua"]) == [root + "/helpers/lock.lua"])
    }
}

/// A value handed to another thread in a test (the watcher's stop is thread-safe).
final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
