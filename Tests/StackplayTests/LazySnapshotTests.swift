import Foundation
import Testing

/// A large file's snapshot is copied lazily (issue 21): its pages stay read-only after the snapshot
/// and a page is copied into it only when first written. Whatever a test writes into the file's
/// state, the next test sees it as the first did, and as a whole copy of the snapshot gives it.
@Suite struct LazySnapshotTests {
    /// A file whose top level leaves `count` numbers (a state of megabytes), with tests that write
    /// into them, grow them and collect, between tests that read them all.
    static func file(_ count: Int, times factor: Int) -> String {
        """
        ballast = {} for i = 1, \(count) do ballast[i] = i * \(factor) end
        local function sum() local s = 0 for i = 1, #ballast do s = s + ballast[i] end return s end
        test("reads first", function() print(#ballast, sum()) end)
        test("writes every page", function() for i = 1, #ballast, 100 do ballast[i] = -1 end end)
        test("reads after writes", function() print(#ballast, sum()) end)
        test("grows and collects", function()
          for i = 1, 50000 do ballast[#ballast + 1] = { i } end
          ballast[1] = nil
          collectgarbage()
          collectgarbage()
        end)
        test("reads last", function() print(#ballast, sum()) end)

        """
    }

    /// Each test's output by file and name.
    static func outputs(_ run: Run) throws -> [String: String] {
        let document = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
        var byName: [String: String] = [:]
        for test in document["tests"] as! [[String: Any]] {
            let file = URL(fileURLWithPath: test["file"] as? String ?? "").lastPathComponent
            byName[file + " " + (test["name"] as! String)] = test["output"] as? String ?? ""
        }
        return byName
    }

    @Test(.disabled(if: builtWithAddressSanitizer, "no snapshots under AddressSanitizer"))
    func
        `tests that write into a large file state leave the next test the values of the first, lazily or not`()
        throws
    {
        let folder = try temporaryFolder([
            "a.lua": Self.file(300_000, times: 1), "b.lua": Self.file(200_000, times: 3),
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = ["--json", "--jobs", "1", "--memory-budget", "64", folder.path]
        let lazy = try stackplay(arguments: arguments)
        #expect(lazy.status == 0, "\(lazy.stdout)\(lazy.stderr)")
        let results = try Self.outputs(lazy)
        #expect(results.count == 10)
        for name in ["reads first", "reads after writes", "reads last"] {
            #expect(results["a.lua " + name] == "300000\t45000150000\n", "a.lua \(name)")
            #expect(results["b.lua " + name] == "200000\t60000300000\n", "b.lua \(name)")
        }
        for environment in [["STACKPLAY_EAGER_SNAPSHOTS": "1"], ["STACKPLAY_NO_USERFAULTFD": "1"]] {
            let whole = try stackplay(arguments: arguments, environment: environment)
            #expect(whole.status == 0)
            #expect(try Self.outputs(whole) == results, "\(environment)")
        }
    }
}
