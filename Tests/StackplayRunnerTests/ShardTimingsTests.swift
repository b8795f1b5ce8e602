import Bindings
import TestResults
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

/// The JUnit reader behind `--shard-timings`: a tokenizer, not a search for `<testcase`.
@Suite struct JUnitTokenizerTests {
    static func seconds(_ xml: String) throws(Options.UsageError) -> [ShardTimings.Key: Double] {
        try ShardTimings.parse(junit: xml, path: "j.xml").seconds
    }

    @Test func `a testcase in a comment, CDATA, a processing instruction or the doctype is no test`() throws {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE testsuites [ <!ENTITY e "<testcase name='d' time='50'/>"> ]>
            <testsuites>
              <!-- <testcase classname="a.lua" name="old" time="100"/> -->
              <?render <testcase name="pi" time="70"/> ?>
              <testcase classname="a.lua" name="real" time="2"><system-out><![CDATA[<testcase name="cdata" time="9"/>]]></system-out></testcase>
              <testcases><testcase classname="a.lua" name="two" time="3"/></testcases>
            </testsuites>
            """
        #expect(
            try Self.seconds(xml) == [
                .init(file: "a.lua", name: "real"): 2, .init(file: "a.lua", name: "two"): 3,
            ])
    }

    @Test func `an attribute value may hold '>', '/>' and the other quote`() throws {
        let xml =
            #"<testcase classname="a.lua" name="a > b /> 'c'" time="1.5"/><testcase name='say "hi"' file="b.lua" time="2"/>"#
        #expect(
            try Self.seconds(xml) == [
                .init(file: "a.lua", name: "a > b /> 'c'"): 1.5, .init(file: "b.lua", name: "say \"hi\""): 2,
            ])
    }

    @Test(arguments: [
        ("<testsuites><!-- open", "not well-formed XML at byte 12: a comment is not closed with '-->'"),
        (
            "<testcase name=\"x time=\"1\"/>",
            "not well-formed XML at byte 24: attribute '1' of <testcase> has no '=value'"
        ),
        (
            "<testcase name=\"x\" time=\"1\"",
            "not well-formed XML at byte 0: <testcase is not closed with '>'"
        ),
        ("<testcase name>", "not well-formed XML at byte 10: attribute 'name' of <testcase> has no '=value'"),
    ])
    func `malformed XML is a usage error naming where`(xml: String, message: String) {
        do {
            _ = try Self.seconds(xml)
            Issue.record("no error")
        } catch {
            #expect(error.message == "j.xml: " + message)
        }
    }

    @Test func `a billion shards cost what as many shards as tests cost, and split the same way`() {
        let tests = ShardTimingsTests.tests((1...9).map { "t\($0)" })
        var seconds: [ShardTimings.Key: Double] = [:]
        for (i, test) in tests.enumerated() {
            seconds[.init(file: test.file, name: test.name)] = Double(i % 3)
        }
        let timings = ShardTimings(seconds: seconds)
        let many = timings.assign(tests, count: 1_000_000_000)
        #expect(many == timings.assign(tests, count: tests.count))
        #expect(many.allSatisfy { $0 < tests.count })
    }

    @Test(arguments: [1, 2, 3, 7, 30, 200])
    func `the heap splits as the plain scan for the lightest shard does`(count: Int) {
        let tests = ShardTimingsTests.tests((1...60).map { "t\($0)" })
        var seconds: [ShardTimings.Key: Double] = [:]
        for (i, test) in tests.enumerated() where i % 5 != 0 {
            seconds[.init(file: test.file, name: test.name)] = Double((i * 7919) % 13) / 4
        }
        let timings = ShardTimings(seconds: seconds)
        // Longest first (ties in order), each to the least loaded shard (ties to the lowest).
        let durations = tests.map(timings.duration(of:))
        let order = tests.indices.sorted {
            durations[$0] > durations[$1] || (durations[$0] == durations[$1] && $0 < $1)
        }
        var loads = [Double](repeating: 0, count: count)
        var expected = [Int](repeating: 0, count: tests.count)
        for index in order {
            let lightest = loads.indices.min { loads[$0] < loads[$1] || (loads[$0] == loads[$1] && $0 < $1) }!
            expected[index] = lightest
            loads[lightest] += durations[index]
        }
        #expect(timings.assign(tests, count: count) == expected)
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
