import Foundation

// `stackplay mutate --incremental`'s row (issue 41): a rerun after one test file changed, against a
// full run, on a copy of scripts/ (so the package's own files are never touched).

/// `stackplay mutate SCRIPTS --jobs 2` in full, then with `--incremental` (the full run's report)
/// after one script was edited (a comment appended): `wallet.lua`, a file that kills a few
/// mutants, is the row's measure; the rerun with nothing changed and the one after an edit of
/// `exact_limits.lua`, the script that kills the most, are shown beside it.
func mutateIncrementalRow(stackplay: String) -> BenchRow {
    let measure = "mutate --incremental: rerun after one test file changed (scripts/)"
    let target = "≤ 20% of a full run"
    let unmeasured = { (why: String) in
        BenchRow(
            measure: measure, today: "a full run", target: target, now: "not measured (\(why))", met: nil)
    }
    let folder = NSTemporaryDirectory() + "stackplay-bench-incremental-\(getpid())"
    let scripts = folder + "/scripts"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "scripts", toPath: scripts)
    } catch { return unmeasured("cannot copy scripts/: \(error.localizedDescription)") }
    let full = folder + "/full.json"
    let whole = spawnMeasured(stackplay, ["mutate", scripts, "--jobs", "2", "--json=" + full])
    guard whole.status == 0 else { return unmeasured("the full run exited \(whole.status)") }
    /// The wall seconds of an incremental rerun after `edited` (a script's name) got a comment.
    func rerun(after edited: String?) -> Double? {
        let path = edited.map { scripts + "/" + $0 }
        let original = path.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }
        if let path, let original {
            guard
                (try? (original + "-- edited\n").write(toFile: path, atomically: true, encoding: .utf8))
                    != nil
            else { return nil }
        }
        defer {
            if let path, let original { try? original.write(toFile: path, atomically: true, encoding: .utf8) }
        }
        let run = spawnMeasured(
            stackplay,
            ["mutate", scripts, "--jobs", "2", "--incremental", full, "--json=\(folder)/rerun.json"])
        return run.status == 0 ? run.seconds : nil
    }
    /// How many mutants `file` killed in the full run.
    func kills(_ file: String) -> Int {
        guard let data = FileManager.default.contents(atPath: full),
            let report = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let files = report["files"] as? [String: [String: Any]]
        else { return 0 }
        return files.values.flatMap { ($0["mutants"] as? [[String: Any]]) ?? [] }.filter {
            (($0["killedBy"] as? [String])?.first ?? "").hasPrefix(scripts + "/" + file + ":")
        }.count
    }
    guard let unchanged = rerun(after: nil), let wallet = rerun(after: "wallet.lua"),
        let exact = rerun(after: "exact_limits.lua")
    else { return unmeasured("an incremental rerun failed") }
    let share = { (seconds: Double) in String(format: "%.0f%%", seconds / whole.seconds * 100) }
    return BenchRow(
        measure: measure, today: "a full run", target: target,
        now: String(format: "%.2f s = ", wallet) + share(wallet)
            + " of \(String(format: "%.2f", whole.seconds)) s (wallet.lua edited, \(kills("wallet.lua")) kills to "
            + "redo); nothing edited \(share(unchanged)); exact_limits.lua (\(kills("exact_limits.lua")) kills) "
            + share(exact),
        met: wallet <= whole.seconds * 0.2)
}
