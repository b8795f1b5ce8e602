import TestResults
import Testing
import Traces

/// A `--trace` file's last line: the run's verdict on its test, read back by `stackplay view`
/// and skipped by everything that replays or compares a trace.
@Suite struct TraceResultLineTests {
    let header =
        #"{"format":"stackplay-trace","version":2,"stackplay":"0.1.0","screen":{"width":390,"height":844,"layout_direction":"ltr","reduce_motion":false,"dynamic_type":"large","now":0},"components":[]}"#
        + "\n"

    func failed() -> TestResult {
        var result = TestResult(
            test: TestCase(
                file: "x.lua", root: nil, name: "drags", position: "x.lua:3", index: 0, skipped: false),
            status: .failed, message: "x.lua:5: values differ", position: "x.lua:5", seconds: 0.25,
            traces: ["not written"], output: "hello\n", seed: 7)
        result.kind = .failure
        return result
    }

    @Test
    func `the result line reads back as the test's verdict, message and output, without traces or time`()
        throws
    {
        let text = TraceResultLine.appending(failed(), screen: 2, to: header)
        #expect(text.hasPrefix(header))
        #expect(text.split(separator: "\n").count == 2)
        let trace = try Trace(text: text, file: "t.jsonl")
        let result = try #require(trace.result)
        #expect(result.test.file == "x.lua" && result.test.name == "drags")
        #expect(result.status == .failed && result.message == "x.lua:5: values differ")
        #expect(result.output == "hello\n" && result.seed == 7)
        #expect(result.traces.isEmpty && result.seconds == 0)
        #expect(trace.resultScreen == 2)
        #expect(trace.steps.isEmpty)
        #expect(TraceResultLine.removed(from: text) == header)
        #expect(TraceResultLine.removed(from: header) == header)
    }

    @Test func `a trace from elsewhere has no result`() throws {
        #expect(try Trace(text: header, file: "t.jsonl").result == nil)
    }

    @Test(arguments: [
        (
            #"{"result":{"file":"x.lua"}}"# + "\n" + #"{"type":"advance","seconds":1,"t":1}"#, 2,
            "the result line is a trace's last line"
        ),
        (#"{"result":{"file":"x.lua","name":"t"}}"#, 2, "field 'result"),
        (#"{"result":3}"#, 2, "field 'result"),
        (
            #"{"result":{"file":"x.lua","name":"t","position":"x.lua:1","status":"failed","seconds":0},"screen":0}"#,
            2, "field 'screen': a screen's number starts at 1"
        ),
    ])
    func `a result line that does not read names its line and field`(
        line: String, number: Int, message: String
    ) {
        #expect {
            _ = try Trace(text: header + line + "\n", file: "t.jsonl")
        } throws: { error in
            "\(error)".hasPrefix("t.jsonl:\(number): ") && "\(error)".contains(message)
        }
    }

    @Test func `a version 1 trace holds no result line`() {
        let v1 = header.replacingOccurrences(of: #""version":2"#, with: #""version":1"#)
        #expect(throws: TraceError.self) {
            _ = try Trace(text: TraceResultLine.appending(failed(), screen: 1, to: v1), file: "t.jsonl")
        }
    }
}
