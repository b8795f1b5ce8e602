import Testing

@testable import Traces

/// The JSON reader behind traces, replay, merge and the Lua module: big inputs read correctly
/// (the reader is linear in them: `make bench` times it; these check only what it reads), and its
/// errors still say what and where.
@Suite struct JSONReaderTests {
    @Test func `an object of 100000 keys reads with every key in order, and a repeated last key is refused`()
        throws
    {
        let keys = (0..<100_000).map { "k\($0)" }
        let text = "{" + keys.enumerated().map { "\"\($1)\":\($0)" }.joined(separator: ",") + "}"
        guard case .object(let fields) = try JSONParser.parse(text) else {
            Issue.record("not an object")
            return
        }
        #expect(fields.count == 100_000)
        #expect(fields.map(\.0) == keys)
        #expect(fields.last?.1 == .number(99_999))
        let repeated = String(text.dropLast()) + ",\"k5\":1}"
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(repeated) }
        do { _ = try JSONParser.parse(repeated) } catch {
            #expect(error.message == "key 'k5' is given twice")
        }
        // Below the set's threshold too.
        do { _ = try JSONParser.parse("{\"a\":1,\"b\":2,\"a\":3}") } catch {
            #expect(error.message == "key 'a' is given twice" && error.column == 19)
        }
    }

    @Test func `a string of 100000 escapes and multibyte text between them reads back exactly`() throws {
        let piece = "\"é\\\n\t\u{1}😀"
        let original = String(repeating: piece, count: 100_000)
        let text = JSONValue.string(original).text
        #expect(try JSONParser.parse(text) == .string(original))
        // Escapes of every kind, a surrogate pair among them.
        #expect(
            try JSONParser.parse(#""a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00z""#)
                == .string("a\"b\\c/d\u{8}\u{C}\n\r\té😀z"))
    }

    @Test func `the writer escapes between combining marks and multibyte text exactly`() throws {
        // A combining mark after a quote or a backslash makes one Character with it: the escape
        // must still come out whole, the mark after it.
        let text = "\"\u{301}a\\\u{301}\n\u{301}é😀\u{1}\u{1F}"
        #expect(JSONValue.string(text).text == "\"\\\"\u{301}a\\\\\u{301}\\n\u{301}é😀\\u0001\\u001f\"")
        #expect(try JSONParser.parse(JSONValue.string(text).text) == .string(text))
    }

    /// The messages and columns the reader gave before it was made linear.
    @Test func `malformed strings keep their messages and columns`() {
        func problem(_ text: String) -> JSONSyntaxError? {
            do {
                _ = try JSONParser.parse(text)
                return nil
            } catch { return error }
        }
        #expect(
            problem("\"ab\u{1}\"")
                == JSONSyntaxError(message: "a control character inside a string", column: 5))
        #expect(
            problem("\"abc")
                == JSONSyntaxError(message: "the line ends inside a string (truncated?)", column: 5))
        #expect(problem("\"a\\x\"") == JSONSyntaxError(message: "invalid escape in a string", column: 5))
        #expect(problem("\"a\\u12\"") == JSONSyntaxError(message: "invalid \\u escape", column: 7))
        #expect(problem("\"\\ud800x\"")?.message.hasPrefix("a lone surrogate \\uD800") == true)
    }

    @Test func `the decoder names a wrongly typed field by its path and never coerces`() throws {
        struct Point: Codable, Equatable {
            var x: Double
            var tags: [String]
        }
        let decoder = JSONValueDecoder()
        let good = try JSONParser.parse(#"{"x":1.5,"tags":["a"]}"#)
        #expect(try decoder.decode(Point.self, from: good) == Point(x: 1.5, tags: ["a"]))
        let cases = [
            (#"{"x":"1.5","tags":[]}"#, "field 'points[2].x': expected a number, got string"),
            (#"{"x":1,"tags":["a",7]}"#, "field 'points[2].tags[1]': expected a string, got number"),
            (#"{"tags":[]}"#, "field 'points[2].x': missing"),
        ]
        for (text, message) in cases {
            do {
                _ = try decoder.decode(
                    Point.self, from: try JSONParser.parse(text), at: [JSONKey("points"), JSONKey(2)])
                Issue.record("\(text) was read")
            } catch {
                #expect(JSONDecodingProblem(error).description == message)
            }
        }
    }

    @Test func `numbers JSON cannot hold are written as strings and read back`() throws {
        let values: [Double] = [.nan, .infinity, -.infinity, 0.1, -0.0]
        let json = try JSONValueEncoder().encode(values)
        #expect(json.text == #"["nan","inf","-inf",0.1,-0.0]"#)
        let back = try JSONValueDecoder().decode([Double].self, from: try JSONParser.parse(json.text))
        #expect(back[0].isNaN && back[1] == .infinity && back[2] == -.infinity && back[3] == 0.1)
        #expect(back[4] == 0 && back[4].sign == .minus)
    }
}
