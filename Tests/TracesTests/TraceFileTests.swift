import Foundation
import StackModel
import Testing
import Traces

/// Files without surprises: injective trace names, Windows line ends, confined paths, the one
/// golden comparison.
@Suite struct TraceFileTests {
    @Test(
        "names that sanitising maps to one stem stay apart",
        arguments: [
            (["s.lua", "Swipe left"], ["s.lua", "swipe-left"]),
            (["a/b-lua.lua"], ["a/b/lua.lua"]),
            (["x.lua", "a b"], ["x.lua", "a  b"]),
            (["x.lua", "é"], ["x.lua", "è"]),
            (["x.lua", ""], ["x.lua"]),
        ])
    func stemsAreUnique(_ a: [String], _ b: [String]) {
        #expect(TraceFile.stem(a) != TraceFile.stem(b))
        #expect(TraceFile.stem(a) == TraceFile.stem(a))
    }

    @Test("a stem keeps its readable part and ends in 8 hex digits")
    func stemShape() {
        let stem = TraceFile.stem(["scripts/swipe_rtl.lua", "N11 right to left"])
        #expect(stem.hasPrefix("scripts-swipe_rtl-lua--n11-right-to-left-"))
        #expect(stem.count == "scripts-swipe_rtl-lua--n11-right-to-left-".count + 8)
        #expect(stem.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
    }

    @Test("a trace with a byte order mark and CRLF line ends reads as the same trace")
    func crlfAndBOM() throws {
        let text = try recordSession(.walletCardStack)
        let plain = try Trace(text: text, file: "a.jsonl")
        let windows = "\u{FEFF}" + text.replacingOccurrences(of: "\n", with: "\r\n")
        let read = try Trace(text: windows, file: "b.jsonl")
        #expect(read.steps.count == plain.steps.count)
        #expect(TraceComparison.firstDifference(expected: plain, actual: read, tolerance: 0) == nil)

        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(windows.utf8).write(to: URL(fileURLWithPath: "\(folder)/w.jsonl"))
        let fromFile = try Trace(contentsOf: "\(folder)/w.jsonl")
        #expect(fromFile.steps.count == plain.steps.count)
    }

    @Test("an input that differs names its field and both values, not only its type")
    func inputDifferenceNamesTheField() throws {
        let text = try recordSession(.walletCardStack)
        var lines = text.split(separator: "\n").map(String.init)
        let index = try #require(lines.firstIndex { $0.contains("\"type\":\"advance\"") })
        let edited = lines[index].replacing(/"seconds":([0-9.e-]+)/) { _ in "\"seconds\":0.125" }
        #expect(edited != lines[index])
        lines[index] = edited
        let expected = try Trace(text: lines.joined(separator: "\n") + "\n", file: "golden.jsonl")
        let actual = try Trace(text: text, file: "(this run)")
        let mismatch = try #require(
            TraceComparison.firstDifference(expected: expected, actual: actual, tolerance: 0))
        #expect(mismatch.line == index + 1)
        #expect(mismatch.field == "seconds")
        #expect(mismatch.expected == "0.125")
        #expect("\(mismatch)".contains("golden.jsonl:\(index + 1): event \(index - 1) (advance at t = "))
        #expect("\(mismatch)".contains("the input, field 'seconds' differs"))
    }

    @Test("a missing event and an extra event are both differences")
    func eventCounts() throws {
        let text = try recordSession(.walletCardStack)
        let shorter = text.split(separator: "\n").dropLast().joined(separator: "\n") + "\n"
        let full = try Trace(text: text, file: "full")
        let short = try Trace(text: shorter, file: "short")
        let missing = try #require(
            TraceComparison.firstDifference(expected: full, actual: short, tolerance: 0))
        #expect(missing.field == "events")
        let extra = try #require(TraceComparison.firstDifference(expected: short, actual: full, tolerance: 0))
        #expect(extra.field == "events")
    }

    @Test(
        "confined paths refuse absolute paths, '..', NUL and empty names",
        arguments: [
            "/etc/passwd", "../x.jsonl", "golden/../../x", "", "a\u{0}b",
        ])
    func confinedRefusals(_ name: String) {
        #expect(throws: ConfinedPath.Refusal.self) { try ConfinedPath(name, under: "/tmp") }
    }

    @Test("a relative path resolves against the folder and is shown from it")
    func confinedResolution() throws {
        #expect(try ConfinedPath("golden/x.jsonl", under: ".").path == "golden/x.jsonl")
        #expect(try ConfinedPath("golden/x.jsonl", under: "scripts/").path == "scripts/golden/x.jsonl")
        #expect(try ConfinedPath("x", under: "/").path == "/x")
    }

    @Test("reads refuse a FIFO at once, a device and a link leading out; writes leave no temporary file")
    func confinedReadsAndWrites() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo("\(folder)/fifo", 0o644) == 0)
        #expect(symlink("/dev/zero", "\(folder)/zero") == 0)
        #expect(symlink("/etc", "\(folder)/etc") == 0)
        let fifo = try ConfinedPath("fifo", under: folder)
        #expect(throws: ConfinedPath.Refusal.self) { try fifo.read() }
        do { _ = try fifo.read() } catch {
            #expect(error.message == "cannot read \(folder)/fifo: it is a FIFO, not a regular file")
        }
        #expect(throws: ConfinedPath.Refusal.self) { try ConfinedPath("zero", under: folder).read() }
        do { _ = try ConfinedPath("etc/passwd", under: folder).read() } catch {
            #expect(error.message.contains("leads outside"))
            #expect(!error.message.contains("root:"))
        }
        #expect(throws: ConfinedPath.Refusal.self) {
            try ConfinedPath("etc/new.jsonl", under: folder).write("x")
        }
        #expect(throws: ConfinedPath.Refusal.self) { try ConfinedPath("fifo", under: folder).write("x") }

        let file = try ConfinedPath("a/b/c.jsonl", under: folder)
        try file.write("one\n")
        try file.write("two\n")
        #expect(try file.read() == "two\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(folder)/a/b") == ["c.jsonl"])
    }

    @Test("a file over the size limit is refused without reading it")
    func sizeLimit() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("{}\n".utf8).write(to: URL(fileURLWithPath: "\(folder)/big.jsonl"))
        #expect(throws: TraceFile.Failure.self) { try TraceFile.read("\(folder)/big.jsonl", limit: 2) }
        #expect(try TraceFile.read("\(folder)/big.jsonl", limit: 3) == "{}\n")
    }

    @Test("writing to a full device is an error")
    func fullDevice() {
        #expect(throws: TraceFile.Failure.self) { try TraceFile.write("x", to: "/dev/full") }
    }

    /// The golden rule, once: exact by default, the tolerance when given; missing under CI fails.
    @Test func goldenPolicy() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let text = try recordSession(.stickyStackedCards)
        let golden = try ConfinedPath("g.jsonl", under: folder)
        #expect(
            try GoldenTrace.check(text, golden: golden, policy: GoldenPolicy(ci: true))
                == .failed(
                    "golden trace \(folder)/g.jsonl is missing; run without CI/--ci or with --update to record it"
                ))
        #expect(!golden.exists)
        #expect(
            try GoldenTrace.check(text, golden: golden, policy: GoldenPolicy())
                == .recorded("\(folder)/g.jsonl"))
        #expect(try GoldenTrace.check(text, golden: golden, policy: GoldenPolicy(ci: true)) == .matched)
        // One frame number off by 1e-7: a difference unless the tolerance forgives it.
        let nudged = text.replacing(/"scroll_offset":([0-9.]+)/) { match in
            "\"scroll_offset\":\(Double(match.1)! + 1e-7)"
        }
        #expect(nudged != text)
        try golden.write(nudged)
        guard case .failed(let message) = try GoldenTrace.check(text, golden: golden, policy: GoldenPolicy())
        else {
            Issue.record("an exact comparison forgave 1e-7")
            return
        }
        #expect(message.contains("differs\n  expected: "))
        #expect(
            message.hasSuffix(
                "To fix: if the change is meant, run again with --update to record \(folder)/g.jsonl."))
        #expect(
            try GoldenTrace.check(text, golden: golden, policy: GoldenPolicy(tolerance: 1e-6)) == .matched)
    }

    private func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stackplay-tf-\(UUID().uuidString)"
        )
        .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
