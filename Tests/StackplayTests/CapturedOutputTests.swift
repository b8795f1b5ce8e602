import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// What a test prints is captured with its test, and every report format stays valid while tests print.
@Suite struct CapturedOutputTests {

    static let printing = """
        print("ok 99 - fake")
        test("prints", function() print("not ok 5 - fake", "1..3") print("# plan") end)
        test("fails", function() print("{\\"tests\\": []}") expect(1):to_equal(2) end)
        test("quiet", function() end)
        """

    @Test func `json stays valid and carries what tests print`() throws {
        let folder = try temporaryFolder(["p.lua": Self.printing])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay("--json", "--jobs", "2", folder.appendingPathComponent("p.lua").path)
        #expect(run.status == 1)
        let document = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
        let tests = document["tests"] as! [[String: Any]]
        #expect(tests.count == 3)
        #expect(tests[0]["output"] as? String == "ok 99 - fake\nnot ok 5 - fake\t1..3\n# plan\n")
        #expect(tests[1]["output"] as? String == "ok 99 - fake\n{\"tests\": []}\n")
    }

    @Test func `tap stays valid for prove while tests print`() throws {
        let folder = try temporaryFolder(["p.lua": Self.printing])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay("--tap", folder.appendingPathComponent("p.lua").path)
        #expect(run.status == 1)
        #expect(run.stdout.contains("# not ok 5 - fake\t1..3"))
        let tap = folder.appendingPathComponent("out.tap")
        try run.stdout.write(to: tap, atomically: true, encoding: .utf8)
        let prove = Process()
        prove.executableURL = URL(fileURLWithPath: "/bin/sh")
        prove.arguments = ["-c", "command -v prove >/dev/null || exit 77; prove -v -e cat \(tap.path) 2>&1"]
        let pipe = Pipe()
        prove.standardOutput = pipe
        try prove.run()
        let text = String(decoding: readToEnd(pipe.fileHandleForReading), as: UTF8.self)
        prove.waitUntilExit()
        try #require(prove.terminationStatus != 77, "prove is not installed")
        // prove counts exactly the three real tests and finds the one failure
        #expect(text.contains("Failed 1/3 subtests"), "\(text)")
        #expect(!text.contains("Bad plan"), "\(text)")
    }

    @Test func `junit holds what a test printed as system-out`() throws {
        let folder = try temporaryFolder(["p.lua": Self.printing])
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("j.xml")
        _ = try stackplay("--junit", junit.path, folder.appendingPathComponent("p.lua").path)
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("<system-out>ok 99 - fake\nnot ok 5 - fake\t1..3\n# plan\n</system-out>"))
        _ = try XMLDocument(xmlString: xml)
    }
}
