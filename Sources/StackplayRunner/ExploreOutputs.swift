import Traces

#if canImport(Glibc)
    import Glibc
#endif

/// What `stackplay explore` wrote to `--out`, remembered in `--out/.stackplay-explore` (one line a
/// file: the file's name, the exploration's script and its name, tab-separated), so that a rerun
/// removes its own stale outputs: a file an exploration wrote when it failed, which now passes,
/// goes; a file explore did not write (not in the list), an exploration this run did not run,
/// and one that did not finish (crashed, timed out) keep theirs.
struct ExploreOutputs {
    static let listName = ".stackplay-explore"

    struct Entry: Equatable {
        var file: String
        var script: String
        var exploration: String
    }

    let out: String
    private(set) var entries: [Entry]

    /// The list in `out`, empty when there is none (or it cannot be read).
    init(out: String) {
        self.out = out
        let text = Check.readFile("\(out)/\(Self.listName)") ?? ""
        entries = text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3, !fields[0].isEmpty, !fields[0].contains("/") else { return nil }
            return Entry(file: fields[0], script: fields[1], exploration: fields[2])
        }
    }

    /// A field on one line of the list: tabs and line breaks as spaces (matching stays exact
    /// for the names the list itself wrote).
    private static func field(_ text: String) -> String {
        String(text.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 })
    }

    /// After the run: `finished` has each exploration that ran to its end, whether it passed and
    /// the names of the files it wrote in `out` (`name.lua`, `name.jsonl`). The files of one that
    /// passed go (when it wrote them in an earlier run), one that failed has its files listed
    /// instead of its earlier ones (an earlier file it no longer writes goes too); the list is
    /// written again, or removed when it lists nothing. Returns the files removed.
    mutating func update(finished: [(script: String, exploration: String, passed: Bool, files: [String])])
        -> [String]
    {
        var removed: [String] = []
        for job in finished {
            let script = Self.field(job.script)
            let exploration = Self.field(job.exploration)
            let mine = entries.filter { $0.script == script && $0.exploration == exploration }
            entries.removeAll { $0.script == script && $0.exploration == exploration }
            for entry in mine where !job.files.contains(entry.file) {
                let path = "\(out)/\(entry.file)"
                var info = stat()
                // Only a regular file: a folder or link made there since is not explore's.
                if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, unlink(path) == 0 {
                    removed.append(path)
                }
            }
            if !job.passed {
                entries += job.files.map { Entry(file: $0, script: script, exploration: exploration) }
            }
        }
        let list = "\(out)/\(Self.listName)"
        if entries.isEmpty {
            unlink(list)
        } else {
            let text = entries.map { "\($0.file)\t\($0.script)\t\($0.exploration)\n" }.joined()
            try? TraceFile.write(text, to: list)
        }
        return removed
    }
}
