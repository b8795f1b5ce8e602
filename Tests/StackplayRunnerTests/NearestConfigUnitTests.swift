import Foundation
import StackModel
import Testing

@testable import StackplayRunner

/// `Config.nearest(from:)` and `ensureOne`, `ExploreOutputs`, and `--audit=strict`, on folders made
/// for each test.
@Suite struct NearestConfigUnitTests {
    func folder(_ files: [String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nearest-\(UUID().uuidString)"
        )
        .resolvingSymlinksInPath()
        for file in files {
            let url = root.appendingPathComponent(file)
            if file.hasSuffix("/") {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
                continue
            }
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try "return {}\n".write(to: url, atomically: true, encoding: .utf8)
        }
        return root
    }

    @Test func `the nearest config of a script or folder, up to a repository's root`() throws {
        let root = try folder([
            ".stackplay.lua", "repo/.git/", "repo/.stackplay.lua", "repo/a/b/x.lua",
            "repo/a/c/.stackplay.lua",
            "repo/a/c/y.lua", "plain/z.lua", "inner/.git/", "inner/w.lua",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.path
        #expect(try Config.nearest(from: "\(path)/repo/a/b/x.lua")?.path == "\(path)/repo/.stackplay.lua")
        #expect(try Config.nearest(from: "\(path)/repo/a/c/y.lua")?.path == "\(path)/repo/a/c/.stackplay.lua")
        #expect(try Config.nearest(from: "\(path)/repo/a/c")?.path == "\(path)/repo/a/c/.stackplay.lua")
        #expect(try Config.nearest(from: "\(path)/plain/z.lua")?.path == "\(path)/.stackplay.lua")
        #expect(try Config.nearest(from: "\(path)/inner/w.lua") == nil, "inner's .git stops the search")
        #expect(try Config.nearest(from: "\(path)/missing/m.lua") == nil)
    }

    @Test func `paths with one nearest config share it; two differ and are named`() throws {
        let a = Config.Found(path: "/p/a/.stackplay.lua", name: "/p/a/.stackplay.lua")
        let b = Config.Found(path: "/p/b/.stackplay.lua", name: "/p/b/.stackplay.lua")
        #expect(try Config.ensureOne([("a/x.lua", a), ("a/y.lua", a)]) == a)
        #expect(try Config.ensureOne([]) == nil)
        #expect(try Config.ensureOne([("x.lua", nil), ("y.lua", nil)]) == nil)
        #expect(throws: Config.Invalid.self) { try Config.ensureOne([("a/x.lua", a), ("b/y.lua", b)]) }
        do {
            _ = try Config.ensureOne([("a/x.lua", a), ("c/z.lua", nil)])
            Issue.record("no error")
        } catch {
            #expect(
                error.message.hasPrefix("a/x.lua reads /p/a/.stackplay.lua but c/z.lua reads no config: "))
        }
    }

    @Test func `explore's list removes a passing exploration's files and keeps the rest`() throws {
        let root = try folder(["out/e.lua", "out/e.jsonl", "out/f.lua", "out/mine.lua"])
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("out").path
        var first = ExploreOutputs(out: out)
        #expect(first.entries.isEmpty)
        _ = first.update(finished: [
            ("s.lua", "e", false, ["e.lua", "e.jsonl"]), ("s.lua", "f", false, ["f.lua"]),
        ])
        var second = ExploreOutputs(out: out)
        #expect(second.entries.count == 3)
        // e passes, f did not run: e's files go, f's and a file never listed stay.
        let removed = second.update(finished: [("s.lua", "e", true, [])])
        #expect(removed == ["\(out)/e.lua", "\(out)/e.jsonl"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out).sorted() == [
                ".stackplay-explore", "f.lua", "mine.lua",
            ])
        var third = ExploreOutputs(out: out)
        #expect(third.update(finished: [("s.lua", "f", true, [])]) == ["\(out)/f.lua"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out) == ["mine.lua"], "an empty list goes")
    }

    @Test func `--audit knows the seeds' findings, --audit=strict none`() throws {
        let plain = try Options.parse(["--audit", "x.lua"])
        #expect(plain.audit?.known == AuditAllowance.seedFindings)
        let strict = try Options.parse(["--audit=strict,trait", "x.lua"])
        #expect(strict.audit?.known == [])
        #expect(strict.audit?.types == [.trait])
        let strictOnly = try Options.parse(["--audit=strict", "x.lua"])
        #expect(strictOnly.audit?.types == AuditType.applicable)
    }
}
