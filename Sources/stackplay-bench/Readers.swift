import Foundation

/// Issue 23's readers, through the `stackplay` binary beside the bench: `replay` of a 900 KB
/// trace the binary records, and `merge` of a 28 MB `--json` report whose tests carry that trace
/// (a string of escaped quotes, the worst case of the old reader, which was quadratic in it).
/// Each best of three; both were 2.5 s and over 600 s before (linear now: well under a second).
func measureReaders(binary: String) throws {
    let folder = NSTemporaryDirectory() + "stackplay-bench-readers-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try """
    test("big trace", function()
      local screen = stackplay.screen {}
      local wallet = screen:wallet_card_stack { items = { "amex", "visa", "mc", "d", "e", "f" } }
      for _ = 1, 170 do
        wallet:tap("visa"); screen:settle()
        screen:escape(); screen:settle()
      end
    end)
    """.write(toFile: folder + "/big.lua", atomically: true, encoding: .utf8)
    let recorded = spawnMeasured(binary, ["--trace", folder + "/traces", folder + "/big.lua"])
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/traces")) ?? []
    guard recorded.status == 0, let name = names.first(where: { $0.hasSuffix(".jsonl") }) else {
        print("readers: the trace was not recorded (status \(recorded.status))")
        return
    }
    let tracePath = folder + "/traces/" + name
    let trace = try String(contentsOfFile: tracePath, encoding: .utf8)
    let replay = fastest(3) { spawnMeasured(binary, ["replay", tracePath]).seconds }

    // Tests of a report, each with the trace: as many as make 28 MB.
    let copies = max(1, 28_000_000 / (trace.utf8.count + trace.utf8.count / 6))
    let tests: [[String: Any]] = (0..<copies).map { index in
        [
            "file": "f\(index % 7).lua", "name": "test \(index)",
            "position": "f\(index % 7).lua:\(index + 1)",
            "status": "passed", "seconds": 0.01, "message": "", "output": "printed \"\(index)\"\n",
            "seed": index, "tags": ["a"], "traces": [trace], "audit": [],
        ]
    }
    let report = try JSONSerialization.data(withJSONObject: ["format_version": 1, "tests": tests, "seed": 0])
    let reportPath = folder + "/report.json"
    try report.write(to: URL(fileURLWithPath: reportPath))
    let merge = fastest(3) { spawnMeasured(binary, ["merge", "--json", reportPath]).seconds }
    let mergeStatus = spawnMeasured(binary, ["merge", reportPath]).status
    print(
        "readers: replay of a \(trace.utf8.count / 1000) KB trace \(String(format: "%.3f", replay)) s; "
            + "merge of a \(report.count / 1_000_000) MB --json report (\(copies) tests with the trace) "
            + "\(String(format: "%.3f", merge)) s (exit \(mergeStatus))")
}
