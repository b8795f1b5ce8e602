/// What `stackplay check` finds in how a script's tests are written, without running them: an
/// `expect(...)` no matcher is called on (it checks nothing), a `test`, `skip` or `only` written
/// inside another test's function (it would never be defined before the runner lists the tests),
/// and two tests of one name (the runner refuses the second).
extension LuaScan {
    /// The functions that define a test.
    static let testDefiners: Set<String> = ["test", "skip", "only"]

    /// Tokens after which a call is part of an expression (its value is used), not a statement.
    private static let valueContext: Set<String> = [
        "=", "return", ",", "(", "{", "[", "local", ".", ":", "..", "==", "~", "<", ">", "+", "-", "*", "/",
        "%", "^", "#", "and", "or", "not", "&", "|", "in",
    ]

    /// `line: message` for each problem of the source's tests, in the order of the source.
    static func testProblems(in source: String) -> [String] {
        let tokens = tokenize(source)
        return unfinishedExpectations(tokens) + nestedTests(tokens) + duplicateTests(tokens)
    }

    /// The index of the token that closes the group opened at `open`, or nil.
    static func closing(_ tokens: [Token], from open: Int) -> Int? {
        var depth = 0
        for j in open..<tokens.count {
            switch tokens[j].text {
            case "(", "{", "[": depth += 1
            case ")", "}", "]":
                depth -= 1
                if depth == 0 { return j }
            default: break
            }
        }
        return nil
    }

    /// Whether the global function named at `i` is called there (`name(` or `name "..."`/`name {`),
    /// not read as a field, a method or a definition.
    private static func isGlobalCall(_ tokens: [Token], at i: Int) -> Bool {
        guard i + 1 < tokens.count, ["(", "\"", "{"].contains(tokens[i + 1].text) else { return false }
        guard i > 0 else { return true }
        return ![".", ":", "function", "local"].contains(tokens[i - 1].text)
    }

    /// `expect(...)` used as a statement with nothing after its closing parenthesis: no matcher.
    static func unfinishedExpectations(_ tokens: [Token]) -> [String] {
        var problems: [String] = []
        for i in tokens.indices where tokens[i].text == "expect" && isGlobalCall(tokens, at: i) {
            guard tokens[i + 1].text == "(", let end = closing(tokens, from: i + 1) else { continue }
            if i > 0, valueContext.contains(tokens[i - 1].text) { continue }
            let after = end + 1 < tokens.count ? tokens[end + 1].text : ""
            guard after != ":", after != ".", after != "(", after != "[" else { continue }
            problems.append(
                "\(tokens[i].line): expect(...) has no matcher: it checks nothing "
                    + "(did you mean expect(...):to_be_truthy()?)")
        }
        return problems
    }

    /// A `test`, `skip` or `only` called inside the function of another.
    static func nestedTests(_ tokens: [Token]) -> [String] {
        var problems: [String] = []
        var i = 0
        while i < tokens.count {
            guard testDefiners.contains(tokens[i].text), isGlobalCall(tokens, at: i),
                tokens[i + 1].text == "(",
                let end = closing(tokens, from: i + 1)
            else {
                i += 1
                continue
            }
            let outer = tokens[i]
            for j in (i + 2)..<end where testDefiners.contains(tokens[j].text) && isGlobalCall(tokens, at: j)
            {
                problems.append(
                    "\(tokens[j].line): '\(tokens[j].text)' inside the \(outer.text) at line \(outer.line): "
                        + "tests are defined at a file's top level; this one would never run")
            }
            i = end + 1
        }
        return problems
    }

    /// A test named with a literal that an earlier test of the file has: the runner refuses it.
    static func duplicateTests(_ tokens: [Token]) -> [String] {
        var first: [String: Int] = [:]
        var problems: [String] = []
        for i in tokens.indices where testDefiners.contains(tokens[i].text) && isGlobalCall(tokens, at: i) {
            let nameAt = tokens[i + 1].text == "(" ? i + 2 : i + 1
            guard nameAt < tokens.count, let name = tokens[nameAt].literal else { continue }
            // `test("a" .. n, ...)`: a name made at run time
            if nameAt + 1 < tokens.count, tokens[nameAt + 1].text == ".." { continue }
            if let line = first[name] {
                problems.append(
                    "\(tokens[i].line): a test called \"\(name)\" is already defined at line \(line): "
                        + "give each test its own name")
            } else {
                first[name] = tokens[i].line
            }
        }
        return problems
    }
}
