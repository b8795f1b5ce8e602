import Foundation
import Testing

@testable import StackplayRunner

/// Which runs load their one file in the runner's own process (``LoneFile``): a whole script
/// alone, under limits that let the CPU budget end a stuck script before the time limit could.
@Suite struct LoneFileTests {
    /// Whether `text`, as the only script, loads in this process under `arguments`.
    private func loadsHere(_ text: String, _ arguments: [String] = [], scripts count: Int = 1) throws -> Bool
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "lone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let scripts = try (0..<count).map { index in
            let path = folder.appendingPathComponent("s\(index).lua").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return Script(path: path, root: folder.path)
        }
        return LoneFile.loadsHere(scripts, options: try Options.parse(arguments))
    }

    @Test func `a lone whole script loads in the runner's own process`() throws {
        #expect(try loadsHere("local screen = stackplay.screen {}\nprint(screen)\n"))
        #expect(
            try loadsHere("print('test(\"no\")') -- test(\"a comment\")\n"),
            "names in strings and comments count for nothing")
        #expect(try loadsHere(""))
    }

    @Test(arguments: [
        "test('t', function() end)", "skip('t', function() end)", "only('t', function() end)",
        "explore('e', {})", "local t = test", "require 'helper'", "load('return 1')()", "_G.print(1)",
        "_ENV.x = 1", "dofile('x.lua')", "loadfile('x.lua')",
    ])
    func `a file that may declare tests, or reach code that might, loads in a worker`(text: String) throws {
        #expect(try !loadsHere(text))
    }

    @Test func `runs that need a worker's limits or say something first load in a worker`() throws {
        #expect(try !loadsHere("local x = 1", scripts: 2), "two files")
        #expect(try !loadsHere("local x = 1", ["--timeout", "5"]), "a time limit inside the 10 s CPU budget")
        #expect(try loadsHere("local x = 1", ["--timeout", "5", "--cpu-budget", "2"]))
        #expect(try !loadsHere("local x = 1", ["--repeat", "2"]))
        #expect(
            try !loadsHere("local x = 1", ["--seed", "random"]), "the seed is said before the file loads")
        let long = String(repeating: "local x = 1\n", count: LoneFile.largest / 10)
        #expect(try !loadsHere(long), "a file longer than \(LoneFile.largest) bytes")
    }
}
