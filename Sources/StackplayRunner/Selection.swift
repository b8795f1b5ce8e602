import Bindings
import TestResults
import Wording

/// Which tests run: `--filter` on `file: name` (any of them), `--tag` and `--exclude-tag` on the
/// tests' tags, then `--shard K/N` over what is left: round robin, or balanced by a previous
/// run's durations (`--shard-timings`, ``ShardTimings``).
enum Selection {
    static func apply(
        _ tests: [TestCase], filters: [String], tags: [String] = [], excludedTags: [String] = [],
        shard: (index: Int, count: Int)?, timings: ShardTimings? = nil
    ) -> [TestCase] {
        var chosen = tests
        if !filters.isEmpty {
            chosen = chosen.filter { test in filters.contains { test.fullName.includesBytes($0) } }
        }
        if !tags.isEmpty { chosen = chosen.filter { test in test.tags.contains { tags.containsBytes($0) } } }
        if !excludedTags.isEmpty {
            chosen = chosen.filter { test in !test.tags.contains { excludedTags.containsBytes($0) } }
        }
        if let shard, let timings {
            let shards = timings.assign(chosen, count: shard.count)
            chosen = chosen.indices.filter { shards[$0] == shard.index - 1 }.map { chosen[$0] }
        } else if let shard {
            // Round robin over the stable order: every test lands in exactly one shard.
            chosen = chosen.enumerated().filter { $0.offset % shard.count == shard.index - 1 }.map(\.element)
        }
        return chosen
    }

    /// What the selection was, for "no test matches ...": `--filter 'x'`, `--tag 'rtl'`, ...
    static func describe(filters: [String], tags: [String], excludedTags: [String]) -> String {
        (filters.map { "--filter '\($0)'" } + tags.map { "--tag '\($0)'" }
            + excludedTags.map { "--exclude-tag '\($0)'" }).joined(separator: ", ")
    }
}
