import Bindings
import Testing

@testable import StackplayRunner

/// `--shard-timings`: JUnit durations read, and shards balanced by them (greedy longest first).
@Suite struct ShardTimingsTests {
    static func tests(_ names: [String], file: String = "a.lua") -> [TestCase] {
        names.enumerated().map { index, name in
            TestCase(
                file: file, root: nil, name: name, position: "\(file):\(index + 1)", index: index + 1,
                skipped: false)
        }
    }

    static let junit = """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="stackplay" tests="4">
          <testsuite name="a.lua" tests="4" time="10">
            <testcase classname="a.lua" name="slow &amp; steady" file="a.lua" line="1" time="8"/>
            <testcase classname="a.lua" name='quick' file="a.lua" line="2" time="1">
              <system-out>&lt;testcase name="fake" time="99"/&gt;</system-out>
            </testcase>
            <testcase classname="a.lua" name="medium" file="a.lua" line="3" time="4"/>
            <testcase classname="a.lua" name="also &#x71;uick" file="a.lua" line="4" time="1"/>
          </testsuite>
        </testsuites>
        """

    @Test func `JUnit durations are read by file and name, entities decoded`() throws {
        let timings = try ShardTimings.parse(junit: Self.junit, path: "j.xml")
        #expect(timings.seconds.count == 4)
        #expect(timings.seconds[.init(file: "a.lua", name: "slow & steady")] == 8)
        #expect(timings.seconds[.init(file: "a.lua", name: "also quick")] == 1)
        #expect(timings.median == 2.5)
    }

    @Test func `a test case without a time names the file and the test`() {
        #expect(throws: Options.UsageError.self) {
            try ShardTimings.parse(junit: "<testcase name=\"x\" time=\"soon\"/>", path: "j.xml")
        }
        do {
            _ = try ShardTimings.parse(junit: "<testcase name=\"x\" time=\"soon\"/>", path: "j.xml")
        } catch {
            #expect(error.message == "j.xml: <testcase name=\"x\"> needs a time in seconds >= 0, not 'soon'")
        }
    }

    @Test func `the median: 0, 1, 2 and many durations`() {
        #expect(ShardTimings(seconds: [:]).median == 1)
        #expect(ShardTimings(seconds: [.init(file: "f", name: "a"): 3]).median == 3)
        #expect(
            ShardTimings(seconds: [.init(file: "f", name: "a"): 3, .init(file: "f", name: "b"): 5]).median
                == 4)
    }

    @Test func `longest first, each to the lightest shard; missing tests count as the median`() throws {
        let timings = try ShardTimings.parse(junit: Self.junit, path: "j.xml")
        let tests = Self.tests(["slow & steady", "quick", "medium", "also quick", "new"])
        // 8 → shard 0; then 4, 2.5 (new: the median), 1, 1 go to the lighter shard 1 until it passes 8.
        #expect(timings.assign(tests, count: 2) == [0, 1, 1, 1, 1])
        let first = Selection.apply(tests, filters: [], shard: (1, 2), timings: timings).map(\.name)
        let second = Selection.apply(tests, filters: [], shard: (2, 2), timings: timings).map(\.name)
        #expect(first == ["slow & steady"])
        #expect(second == ["quick", "medium", "also quick", "new"])
    }

    @Test(arguments: [1, 2, 3, 5, 40])
    func `every test lands in exactly one shard, the same way every time`(count: Int) {
        let tests = Self.tests((1...23).map { "t\($0)" })
        var seconds: [ShardTimings.Key: Double] = [:]
        for (i, test) in tests.enumerated() where i % 4 != 0 {
            seconds[.init(file: test.file, name: test.name)] = Double(i % 7)
        }
        let timings = ShardTimings(seconds: seconds)
        var seen: [String] = []
        for index in 1...count {
            let shard = Selection.apply(tests, filters: [], shard: (index, count), timings: timings)
            #expect(shard == Selection.apply(tests, filters: [], shard: (index, count), timings: timings))
            seen += shard.map(\.name)
        }
        #expect(seen.sorted() == tests.map(\.name).sorted())
    }
}

/// Bazel's test protocol, read from a dictionary instead of the environment.
@Suite struct BazelTestTests {
    func read(_ variables: [String: String]) throws -> BazelTest { try BazelTest.read { variables[$0] } }

    @Test func `the shard is 1-based from Bazel's 0-based index; flags win`() throws {
        var bazel = try read([
            "TEST_TOTAL_SHARDS": "3", "TEST_SHARD_INDEX": "0", "XML_OUTPUT_FILE": "out/test.xml",
            "TEST_UNDECLARED_OUTPUTS_DIR": "undeclared",
        ])
        var options = try Options.parse(["scripts"])
        bazel.apply(to: &options)
        #expect(options.shard?.index == 1 && options.shard?.count == 3)
        #expect(options.junit == "out/test.xml")
        #expect(options.artifactsDirectory == "undeclared")
        var flagged = try Options.parse([
            "--shard", "2/2", "--junit", "mine.xml", "--artifacts", "a", "scripts",
        ])
        bazel.apply(to: &flagged)
        #expect(flagged.shard?.index == 2 && flagged.shard?.count == 2)
        #expect(flagged.junit == "mine.xml" && flagged.artifactsDirectory == "a")
    }

    @Test func `no variables change nothing; empty ones count as unset`() throws {
        var bazel = try read(["TEST_TOTAL_SHARDS": "", "XML_OUTPUT_FILE": ""])
        var options = try Options.parse(["scripts"])
        bazel.apply(to: &options)
        #expect(options.shard == nil && options.junit == nil && options.artifactsDirectory == nil)
    }

    @Test(arguments: [
        (["TEST_TOTAL_SHARDS": "0"], "TEST_TOTAL_SHARDS needs a whole number >= 1, not '0'"),
        (
            ["TEST_TOTAL_SHARDS": "2", "TEST_SHARD_INDEX": "2"],
            "TEST_SHARD_INDEX needs a whole number from 0 to 1, not '2'"
        ),
        (
            ["TEST_TOTAL_SHARDS": "2", "TEST_SHARD_INDEX": "-1"],
            "TEST_SHARD_INDEX needs a whole number from 0 to 1, not '-1'"
        ),
    ])
    func `bad shard variables are usage errors naming the variable`(
        variables: [String: String], message: String
    ) {
        do {
            _ = try read(variables)
            Issue.record("no error")
        } catch {
            #expect((error as? Options.UsageError)?.message == message)
        }
    }
}
