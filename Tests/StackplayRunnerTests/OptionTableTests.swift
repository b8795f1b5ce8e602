import Foundation
import Testing

@testable import StackplayRunner

/// The option table (``Options/table``) and what is derived from it: `--help`, the scopes, the
/// config keys, the range checks.
@Suite struct OptionTableTests {
    /// The spellings `--help` shows in its option sections: each label's words that start with `-`.
    static let shownSpellings: Set<String> = {
        var shown: Set<String> = []
        var inOptions = false
        for line in Options.help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasSuffix("OPTIONS:") {
                inOptions = true
            } else if line.isEmpty {
                inOptions = false
            } else if inOptions, line.hasPrefix("  -") {
                let label = line.dropFirst(2).split(separator: "  ").first ?? ""
                for word in label.split(whereSeparator: { " ,[".contains($0) }) where word.hasPrefix("-") {
                    shown.insert(String(word))
                }
            }
        }
        return shown
    }()

    /// What users type, written out by hand so that a spelling lost from the table fails here.
    static let knownSpellings = [
        "--filter", "--tag", "--tags", "--exclude-tag", "--exclude-tags", "--list", "--jobs", "--shard",
        "--shard-timings", "--tap", "--json", "--junit", "--trace", "--golden", "--update", "--tolerance",
        "--artifacts", "--cpu-budget", "--memory-budget", "--root", "--seed", "--repeat", "--forbid-only",
        "--matrix", "--mirror", "--ci", "--audit", "--timeout", "--version", "-h", "--help", "--at", "-o",
        "--output", "--runs", "--steps", "--time", "--out", "--config",
    ]

    @Test func `every accepted spelling appears in --help, and every shown one is accepted`() {
        let accepted = Set(Options.table.flatMap(\.spellings))
        #expect(accepted.subtracting(Self.shownSpellings).isEmpty, "missing from --help")
        #expect(Self.shownSpellings.subtracting(accepted).isEmpty, "shown but not accepted")
        for spelling in Self.knownSpellings {
            #expect(Self.shownSpellings.contains(spelling), "\(spelling) is not in --help")
            #expect(Options.specs[spelling] != nil, "\(spelling) is not accepted")
        }
        // The aliases share their option's line.
        #expect(Options.help.contains("\n  --tag, --tags TAG[,TAG]\n"))
        #expect(Options.help.contains("\n  -o, --output FILE "))
    }

    @Test func `every spelling is declared once and every option has help text`() {
        let spellings = Options.table.flatMap(\.spellings)
        #expect(Set(spellings).count == spellings.count, "a spelling is declared twice")
        for spec in Options.table {
            #expect(!spec.help.isEmpty, "\(spec.label) has no help text")
            for line in spec.help.split(separator: "\n", omittingEmptySubsequences: false) {
                #expect(!line.isEmpty && line.count <= 72 && line.last != " ", "\(spec.label): '\(line)'")
            }
            for spelling in spec.spellings {
                #expect(spelling.hasPrefix("--") || (spelling.count == 2 && spelling.hasPrefix("-")))
            }
        }
    }

    @Test func `every config key maps to exactly one option or is the config's own`() {
        #expect(Set(Config.keys).count == Config.keys.count, "a config key is declared twice")
        for key in Config.keys {
            let options = Options.table.filter { $0.config?.name == key }
            if Config.ownKeys.contains(key) {
                #expect(options.isEmpty, "\(key) is the config's own and an option's")
            } else {
                #expect(options.count == 1, "\(key) belongs to \(options.map(\.label))")
            }
        }
        #expect(
            Config.keys.sorted() == [
                "audit", "cpu_budget", "jobs", "junit", "matrix", "memory_budget", "paths", "reporter",
                "screen", "seed",
            ])
    }

    /// `'--x' goes with A and B, not with C` → [A, B].
    func owners(in message: String) -> [String]? {
        guard let start = message.range(of: " goes with "), let end = message.range(of: ", not with ") else {
            return nil
        }
        return message[start.upperBound..<end.lowerBound].components(separatedBy: " and ")
    }

    @Test func `the scope table round-trips through its messages`() {
        let commands = Options.Action.allCases.filter { $0 != .help && $0 != .version }
        for spec in Options.table {
            for spelling in spec.spellings {
                #expect(Options.scopes[spelling] == spec.commands)
                for action in commands {
                    do {
                        try Options.checkScope(spelling, for: action)
                        #expect(spec.commands?.contains(action) != false, "\(spelling) accepted by \(action)")
                    } catch {
                        #expect(spec.commands?.contains(action) == false, "\(spelling) refused by \(action)")
                        let named = owners(in: error.message)
                        let expected = spec.commands?.sorted { $0.order < $1.order }.map(\.commandName)
                        #expect(named == expected, "\(error.message)")
                        #expect(error.message.hasPrefix("'\(spelling)' goes with "))
                    }
                }
            }
        }
    }

    /// The first command an option goes with, as its arguments begin.
    static func command(of spec: OptionSpec) -> [String] {
        guard let first = spec.commands?.min(by: { $0.order < $1.order }), first != .run else { return [] }
        return [first.word]
    }

    static let hostileNumbers = [
        "1e308", "-1e308", "-1", "-0", "0", "nan", "-nan", "inf", "-inf", "infinity", "9223372036854775807",
        "9223372036854775808", "-9223372036854775809", "18446744073709551616",
        String(repeating: "9", count: 400),
        "2^63", "0x10", "1e-320", "0.5", "", " 1", "1/1000000000", "9223372036854775807/9223372036854775807",
        "1/0", "0/0",
    ]

    @Test func `hostile numbers for every flag are refused or land in range`() {
        for spec in Options.table {
            guard case .value = spec.argument else { continue }
            for spelling in spec.spellings {
                for value in Self.hostileNumbers {
                    let arguments = Self.command(of: spec) + [spelling, value, "x"]
                    let options: Options
                    do { options = try Options.parse(arguments) } catch {
                        #expect(error.message.hasPrefix(spelling), "\(arguments): \(error.message)")
                        continue
                    }
                    let seconds = [options.timeout, options.budget.cpuSeconds, options.exploreSeconds ?? 1]
                    #expect(seconds.allSatisfy { $0 > 0 && $0 <= 1_000_000 }, "\(arguments): \(seconds)")
                    #expect(options.tolerance.map { $0.isFinite && $0 >= 0 } ?? true, "\(arguments)")
                    #expect(options.jobs.map(Options.jobRange.contains) ?? true, "\(arguments)")
                    #expect((1...1_000_000).contains(options.repeats), "\(arguments)")
                    #expect(options.shard.map { $0.count <= Options.maximumShards } ?? true, "\(arguments)")
                    #expect((options.seed ?? 0) >= 0 && (options.at ?? 0) >= -1, "\(arguments)")
                    for count in [options.exploreRuns, options.exploreSteps] {
                        #expect(count.map((1...100_000_000).contains) ?? true, "\(arguments)")
                    }
                }
            }
        }
    }

    @Test func `a flag with a config key marks it given, so the config leaves it alone`() throws {
        #expect(try Options.parse(["--jobs", "2", "s"]).given == ["jobs"])
        #expect(try Options.parse(["--seed", "random", "s"]).given == ["seed"])
        #expect(
            try Options.parse(["--cpu-budget", "2", "--memory-budget", "8", "s"]).given == [
                "cpu_budget", "memory_budget",
            ])
        // audit's allow list applies whatever the flag says.
        #expect(try Options.parse(["--audit=trait", "s"]).given.isEmpty)
    }
}
