import Testing

@testable import StackplayRunner

/// The command line: values, ranges, and flags scoped to the commands they mean something for.
@Suite struct OptionsUnitTests {
    func parse(_ arguments: String...) throws -> Options { try Options.parse(arguments) }

    func usageError(_ arguments: String...) -> String? {
        do {
            _ = try Options.parse(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func `a run's flags are read`() throws {
        let options = try parse(
            "--jobs", "2", "--shard", "2/3", "--filter", "a", "--filter=b", "--seed", "7", "--repeat", "3",
            "--timeout", "5", "--tag", "rtl,smoke", "--json", "scripts")
        #expect(options.action == .run)
        #expect(options.jobs == 2)
        #expect(options.shard?.index == 2 && options.shard?.count == 3)
        #expect(options.filters == ["a", "b"])
        #expect(options.seed == 7)
        #expect(options.repeats == 3)
        #expect(options.timeout == 5)
        #expect(options.tags == ["rtl", "smoke"])
        #expect(options.format == .json)
        #expect(options.paths == ["scripts"])
    }

    @Test(arguments: [
        (["--at", "3", "scripts"], "'--at' goes with 'stackplay render', not with running scripts"),
        (
            ["replay", "--junit", "x.xml", "t.jsonl"],
            "'--junit' goes with running scripts and 'stackplay merge' and 'stackplay mutate', not with 'stackplay replay' (did you mean 'stackplay --junit ... FILE|DIR'?)"
        ),
        (["replay", "--list", "t.jsonl"], "'--list' goes with running scripts, not with 'stackplay replay'"),
        (
            ["replay", "--shard", "1/2", "t.jsonl"],
            "'--shard' goes with running scripts and 'stackplay mutate', not with 'stackplay replay'"
        ),
        (
            ["render", "--tolerance", "1", "t.jsonl"],
            "'--tolerance' goes with running scripts and 'stackplay replay', not with 'stackplay render'"
        ),
        (
            ["check", "--jobs", "2", "scripts"],
            "'--jobs' goes with running scripts and 'stackplay explore' and 'stackplay mutate', not with 'stackplay check'"
        ),
        (
            ["-o", "x.svg", "scripts"],
            "'-o' goes with 'stackplay render' and 'stackplay view' and 'stackplay codegen', not with running scripts"
        ),
        (["view", "--at", "3", "t.jsonl"], "'--at' goes with 'stackplay render', not with 'stackplay view'"),
        (
            ["merge", "--shard", "1/2", "r.json"],
            "'--shard' goes with running scripts and 'stackplay mutate', not with 'stackplay merge'"
        ),
        (
            ["merge", "-o", "x", "r.json"],
            "'-o' goes with 'stackplay render' and 'stackplay view' and 'stackplay codegen', not with 'stackplay merge'"
        ),
        (
            ["view", "--shard-timings", "j.xml", "t.jsonl"],
            "'--shard-timings' goes with running scripts, not with 'stackplay view'"
        ),
        (["explore", "--tap", "x.lua"], "'--tap' goes with running scripts, not with 'stackplay explore'"),
        (
            ["render", "--steps", "3", "t.jsonl"],
            "'--steps' goes with 'stackplay explore', not with 'stackplay render'"
        ),
    ])
    func `a flag given to a command it does not belong to is a usage error`(
        arguments: [String], message: String
    ) {
        let problem: String?
        do {
            _ = try Options.parse(arguments)
            problem = nil
        } catch {
            problem = error.message
        }
        #expect(problem?.hasPrefix(message) == true, "\(problem ?? "no error")")
    }

    @Test func `flags that belong are accepted by each command`() throws {
        #expect(try parse("check", "--root", "x", "scripts").action == .check)
        #expect(try parse("replay", "--tolerance", "1e-6", "t.jsonl").tolerance == 1e-6)
        #expect(try parse("render", "t.jsonl", "--at", "3", "-o", "f.svg").at == 3)
        #expect(try parse("--tolerance", "0.5", "scripts").tolerance == 0.5)
        #expect(try parse("replay", "--help").action == .help)
        #expect(try parse("view", "a.jsonl", "b.jsonl", "-o", "v.html").outputFile == "v.html")
        let merge = try parse("merge", "a.json", "b.json", "--junit", "j.xml", "--json", "--artifacts", "out")
        #expect(merge.action == .merge && merge.paths == ["a.json", "b.json"] && merge.junit == "j.xml")
        #expect(merge.format == .json && merge.artifactsDirectory == "out")
        #expect(try parse("--shard", "1/2", "--shard-timings", "j.xml", "s").shardTimings == "j.xml")
    }

    @Test func `bad values and unknown flags name the flag`() {
        #expect(usageError("--jobs", "0", "s") == "--jobs needs a whole number from 1 to 1024, not '0'")
        #expect(usageError("--seed", "-1", "s") == "--seed needs a whole number >= 0 or 'random', not '-1'")
        #expect(
            usageError("--repeat", "x", "s") == "--repeat needs a whole number from 1 to 1000000, not 'x'")
        #expect(usageError("--shard", "3/2", "s") == "--shard needs K/N with 1 <= K <= N, not '3/2'")
        #expect(usageError("--tapp", "s") == "unknown option '--tapp' (did you mean '--tap'?)")
        #expect(usageError("--timeout") == "--timeout needs a value")
    }

    @Test func `out-of-range numbers name the flag and the range`() {
        let seconds = "a positive number of seconds up to 1000000"
        #expect(usageError("--timeout", "1e308", "s") == "--timeout needs \(seconds), not '1e308'")
        #expect(usageError("--timeout", "0", "s") == "--timeout needs \(seconds), not '0'")
        #expect(usageError("--cpu-budget", "inf", "s") == "--cpu-budget needs \(seconds), not 'inf'")
        #expect(usageError("explore", "--time", "nan", "s") == "--time needs \(seconds), not 'nan'")
        #expect(
            usageError("--shard", "1/2147483648", "s")
                == "--shard needs at most 2147483647 shards (K/N with N <= 2147483647), not '1/2147483648'")
        #expect(usageError("--shard", "1/1000000000", "s") == nil)
        #expect(
            usageError("--jobs", "9223372036854775808", "s")
                == "--jobs needs a whole number from 1 to 1024, not '9223372036854775808'")
        #expect(
            usageError("--repeat", "-1", "s") == "--repeat needs a whole number from 1 to 1000000, not '-1'")
        #expect(usageError("--seed", "1e3", "s") == "--seed needs a whole number >= 0 or 'random', not '1e3'")
        #expect(usageError("--seed", "9223372036854775807", "s") == nil)
        #expect(
            usageError("render", "--at", "-2", "t")
                == "--at needs an event index >= 0, or -1 for the screen as built, not '-2'")
        #expect(
            usageError("explore", "--runs", "2^63", "s")
                == "--runs needs a whole number from 1 to 100000000, not '2^63'")
        #expect(usageError("--tolerance", "nan", "s") == "--tolerance needs a number >= 0, not 'nan'")
        #expect(usageError("--list=3", "s") == "--list takes no value, not '3'")
        #expect(
            usageError("--exclude-tgas", "a", "s")
                == "unknown option '--exclude-tgas' (did you mean '--exclude-tag'?)")
    }
}
