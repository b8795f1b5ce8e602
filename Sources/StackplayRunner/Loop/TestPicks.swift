import TestResults

/// Tests chosen one by one (`file.lua:LINE`, `--last-failed`), on top of the run's other
/// selection: in each file it names, only the tests it picks run; the other files run whole, or
/// not at all when `othersRun` is false (`--last-failed` runs only the files that had failures).
/// Files are compared by their real paths, so a run from another folder picks the same tests.
struct TestPicks {
    /// What is picked in one file: tests by the line their `test(` call starts on, or by name
    /// (`""`: every test of the file).
    struct InFile {
        var lines: Set<Int> = []
        var names: Set<String> = []
    }

    var files: [String: InFile] = [:]
    var othersRun = true

    /// Of one file's tests (base tests, before `--matrix` and `--mirror` copy them), those picked.
    /// A file without tests is one whole-file test: any pick in it picks it.
    func apply(_ cases: [TestCase]) -> [TestCase] {
        cases.filter { test in
            guard let picked = files[AffectedScripts.canonical(test.file)] else { return othersRun }
            // "": the whole file (it did not load last time, or has no tests).
            if test.index == 0 || picked.names.contains("") || picked.names.contains(test.baseName) {
                return true
            }
            guard let colon = test.position.lastIndex(of: ":"),
                let line = Int(test.position[test.position.index(after: colon)...])
            else { return false }
            return picked.lines.contains(line)
        }
    }
}
