import Foundation
import Testing

/// A file's tests run as soon as it is discovered; the report is the one a run that discovers
/// every file first gives (`--shard 1/1` does), byte for byte but the times, in the same order.
@Suite struct RunningAsFoundRunTests {
    /// `text` with every JSON `"seconds"` value 0.
    static func timeless(_ text: String) -> String {
        text.replacing(/"seconds":[0-9.e+-]+/, with: "\"seconds\":0")
    }

    @Test func `the report is the same as when every file is discovered first`() throws {
        var files: [String: String] = [
            "a_broken.lua": "test('x', function() end\n",
            "b_whole.lua": "print('whole')\n",
            "c_only.lua": "only('o', function() end)\ntest('t', function() end)\n",
            "d_fails.lua":
                "test('f', function() expect(1):to_equal(2) end)\ntest('p', function() print('p') end)\n",
        ]
        // more tests than a worker runs unasked, some skipped
        files["e_many.lua"] = (1...40).map { "\($0 % 7 == 0 ? "skip" : "test")('t\($0)', function() end)" }
            .joined(separator: "\n")
        let folder = try temporaryFolder(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        for format in [[], ["--json"], ["--tap"]] {
            for jobs in ["1", "2", "3"] {
                let asFound = try stackplay(arguments: ["--jobs", jobs] + format + [folder.path])
                let allFirst = try stackplay(
                    arguments: ["--jobs", jobs] + format + ["--shard", "1/1", folder.path])
                #expect(asFound.status == 1)
                #expect(asFound.status == allFirst.status)
                // (times differ from run to run)
                #expect(
                    Self.timeless(asFound.stdout) == Self.timeless(allFirst.stdout),
                    "\(format) --jobs \(jobs)")
                #expect(asFound.stderr == allFirst.stderr, "\(format) --jobs \(jobs)")
            }
        }
        // the 40 tests of one file, in their order, though the first 16 ran unasked and the
        // others were sent
        let human = try stackplay("--jobs", "2", folder.path)
        let many = human.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let name = line.split(separator: " ").last, name.hasPrefix("t"),
                Int(name.dropFirst()) != nil
            else { return nil }
            return String(name)
        }
        #expect(many == (1...40).map { "t\($0)" })
    }
}
