import TestResults

/// `--reporter github`: GitHub Actions workflow commands on stdout, one `::error` annotation a
/// failed test, placed on the line that failed (the `expect` that did not hold, the line that
/// raised), so that the pull request shows it there: `::error file=x.lua,line=12,title=x.lua:
/// name::x.lua:12: values differ%0A  expected: 3` (the title is the test's full name). A skipped variant's reason is a `::notice`.
/// Every other line is plain text (the summary), which the log shows as it is.
struct GitHubReporter: Reporter {
    private var summary = Summary([])

    mutating func finished(_ result: TestResult, to sink: ReportSink) {
        summary.add(result.status)
        switch result.status {
        case .passed: return
        case .skipped:
            guard !result.message.isEmpty else { return }
            sink.out(Self.annotation("notice", result, message: result.message))
        case .failed:
            var message = result.message
            if !result.traceback.isEmpty { message += "\n" + result.traceback }
            sink.out(Self.annotation("error", result, message: message))
        }
    }

    func end(to sink: ReportSink) -> Bool {
        sink.out(summary.line)
        return true
    }

    /// `::KIND file=F,line=L,title=T::message` for `result`: the failing line when the result has
    /// one, else the test's own line.
    static func annotation(_ kind: String, _ result: TestResult, message: String) -> String {
        let position = result.position.isEmpty ? result.test.position : result.position
        let (file, line) = split(position) ?? split(result.test.position) ?? (result.test.file, 1)
        let properties = [
            ("file", file), ("line", String(line)), ("title", result.test.fullName),
        ]
        .map { "\($0.0)=\(escapeProperty($0.1))" }
        .joined(separator: ",")
        return "::\(kind) \(properties)::\(escapeData(message))"
    }

    /// `path:line` as its two parts; nil when it does not end in `:digits`.
    static func split(_ position: String) -> (String, Int)? {
        guard let colon = position.lastIndex(of: ":"),
            let line = Int(position[position.index(after: colon)...]),
            line > 0, colon != position.startIndex
        else { return nil }
        return (String(position[..<colon]), line)
    }

    /// A workflow command's message, as GitHub's toolkit escapes it: `%`, carriage return and
    /// newline as `%25`, `%0D`, `%0A` (the annotation keeps its lines).
    static func escapeData(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A property's value (`file=`, `title=`): the message's escapes, and `:` and `,` as `%3A` and
    /// `%2C`, which would otherwise end the value.
    static func escapeProperty(_ text: String) -> String {
        var out = ""
        for scalar in escapeData(text).unicodeScalars {
            switch scalar {
            case ":": out += "%3A"
            case ",": out += "%2C"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
