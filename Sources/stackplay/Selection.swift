import Bindings

/// Which tests run: `--filter` on `file: name`, then `--shard K/N` over what is left.
enum Selection {
    static func apply(_ tests: [TestCase], filter: String?, shard: (index: Int, count: Int)?) -> [TestCase] {
        var chosen = tests
        if let filter { chosen = chosen.filter { $0.fullName.contains(filter) } }
        if let shard {
            // Round robin over the stable order: every test lands in exactly one shard.
            chosen = chosen.enumerated().filter { $0.offset % shard.count == shard.index - 1 }.map(\.element)
        }
        return chosen
    }
}
