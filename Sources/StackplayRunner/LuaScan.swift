import Bindings
import StackModel

/// A light reading of Lua source for `stackplay check`: it skips comments and strings and finds
/// `stackplay.NAME` and method calls `x:NAME(...)`, so that a misspelt API name is caught before
/// anything runs. Methods the script defines itself (`function M:name`), those of the modules it
/// `require`s, and string methods are known too. The option tables it can see (`stackplay.screen
/// { ... }`, `screen:drag(x, y, { ... })`) are checked against the names each call takes.
enum LuaScan {
    struct Token {
        var text: String
        var line: Int
        /// A short string literal's text as written (escapes not read): `require "a.b"`'s name.
        var literal: String? = nil
        /// Where the token is among its source's tokens, when a scan needs to go on from it.
        var index: Int? = nil
    }

    static let stringMethods: Set<String> = [
        "byte", "char", "dump", "find", "format", "gmatch", "gsub", "len", "lower", "match", "pack",
        "packsize", "rep",
        "reverse", "sub", "unpack", "upper",
    ]

    /// `line: message` for every unknown name. `defined` holds the names the modules the source
    /// requires define.
    static func unknownNames(
        in source: String, fields: Set<String>, methods: Set<String>, defined more: Set<String> = []
    ) -> [String] {
        let tokens = tokenize(source)
        let known = methods.union(stringMethods).union(definedNames(tokens)).union(more)
        // Fields a script sets on `stackplay` itself are its own to read.
        var fields = fields
        for i in tokens.indices.dropFirst(2).dropLast()
        where tokens[i - 2].text == "stackplay" && tokens[i - 1].text == "." && tokens[i + 1].text == "=" {
            fields.insert(tokens[i].text)
        }
        var problems: [String] = []
        for i in tokens.indices.dropFirst() {
            let token = tokens[i]
            guard isName(token.text) else { continue }
            if tokens[i - 1].text == ".", i >= 2, tokens[i - 2].text == "stackplay",
                !token.text.hasPrefix("_"),
                !fields.contains(token.text), !(i + 1 < tokens.count && tokens[i + 1].text == "=")
            {
                problems.append(message(token, "stackplay.", fields))
            }
            if tokens[i - 1].text == ":", i + 1 < tokens.count,
                ["(", "{", "\""].contains(tokens[i + 1].text),
                !known.contains(token.text)
            {
                problems.append(message(token, ":", known))
            }
        }
        return problems
    }

    /// The names `tokens` define on tables: `function M:name`, `function M.name`, `M.name = ...`,
    /// `name = function` (in a table constructor too).
    static func definedNames(_ tokens: [Token]) -> Set<String> {
        var defined = Set<String>()
        for i in tokens.indices.dropFirst(2) where tokens[i - 1].text == ":" || tokens[i - 1].text == "." {
            // `function M:name` / `function M.name` / `M.name = function`
            if i >= 3, tokens[i - 3].text == "function" { defined.insert(tokens[i].text) }
            if i + 2 < tokens.count, tokens[i + 1].text == "=" { defined.insert(tokens[i].text) }
        }
        for i in tokens.indices.dropFirst()
        where tokens[i].text == "=" && i + 1 < tokens.count
            && tokens[i + 1].text == "function" && isName(tokens[i - 1].text)
        {
            defined.insert(tokens[i - 1].text)
        }
        return defined
    }

    /// The module names `tokens` require with a literal: `require "helpers.x"`, `require("x")`.
    static func requires(_ tokens: [Token]) -> [String] {
        var names: [String] = []
        for i in tokens.indices.dropLast() where tokens[i].text == "require" {
            var next = i + 1
            if tokens[next].text == "(", next + 1 < tokens.count { next += 1 }
            if let name = tokens[next].literal { names.append(name) }
        }
        return names
    }

    /// `line: message` for each key of an option table the source passes to a call in `options`
    /// (`stackplay.screen { layout_directon = "rtl" }`) that the call does not take. Calls named
    /// like a method the script or its modules define (`defined`) are the script's own: skipped.
    static func unknownOptions(in source: String, options: [String: [String]], defined: Set<String>)
        -> [String]
    {
        let tokens = tokenize(source)
        let ownNames = definedNames(tokens).union(defined)
        var problems: [String] = []
        for i in tokens.indices.dropLast() {
            guard let known = options[tokens[i].text] else { continue }
            let before = i > 0 ? tokens[i - 1].text : ""
            let isGlobal = ["test", "skip", "only"].contains(tokens[i].text)
            if isGlobal {
                guard before != "." && before != ":" && before != "function" else { continue }
            } else {
                // `stackplay.screen { ... }`, `stackplay.replay(path, { ... })`, or a method call
                // whose name the script does not define itself.
                if before == "." {
                    guard i >= 2, tokens[i - 2].text == "stackplay" else { continue }
                } else {
                    guard before == ":", !ownNames.contains(tokens[i].text) else { continue }
                }
            }
            for table in argumentTables(tokens, after: i) {
                for key in tableKeys(tokens, at: table) {
                    if !known.contains(key.text) {
                        problems.append(unknownOption(key, of: tokens[i].text, known: known))
                    }
                    // `items = { "a", { id = "b", hieght = 90 } }`: each item table's fields.
                    guard key.text == "items", known.contains("items"), let index = key.index,
                        index + 2 < tokens.count, tokens[index + 2].text == "{"
                    else { continue }
                    for item in elementTables(tokens, at: index + 2) {
                        for field in tableKeys(tokens, at: item) where !itemFields.contains(field.text) {
                            problems.append(unknownOption(field, of: "an item", known: itemFields))
                        }
                    }
                }
            }
        }
        return problems
    }

    /// The fields an item table of `items` takes.
    static let itemFields = ["id", "height", "label"]

    private static func unknownOption(_ key: Token, of call: String, known: [String]) -> String {
        var text = "\(key.line): unknown option '\(key.text)' of \(call)"
        if let near = nearestName(to: key.text, in: known) {
            text += " (did you mean '\(near)'?)"
        } else {
            text += " (it takes: \(known.joined(separator: ", ")))"
        }
        return text
    }

    /// The indices of the tokens directly inside the bracketed group (`(...)`, `{...}`) whose
    /// opening token is at `start`: not those of groups nested in it, nor the closing token.
    static func topLevel(_ tokens: [Token], from start: Int) -> [Int] {
        var inside: [Int] = []
        var depth = 0
        var j = start
        while j < tokens.count {
            let text = tokens[j].text
            if text == ")" || text == "}" || text == "]" {
                depth -= 1
                if depth == 0 { break }
            } else if depth == 1 {
                inside.append(j)
            }
            if text == "(" || text == "{" || text == "[" { depth += 1 }
            j += 1
        }
        return inside
    }

    /// The `{` of each table literal that is an element of the list literal whose `{` is at `start`.
    static func elementTables(_ tokens: [Token], at start: Int) -> [Int] {
        topLevel(tokens, from: start).filter {
            tokens[$0].text == "{" && ["{", ",", ";"].contains(tokens[$0 - 1].text)
        }
    }

    /// The indices of the `{` of each table literal given directly as an argument of the call
    /// whose name is at `index`: `f { ... }` or `f(a, { ... }, { ... })`.
    static func argumentTables(_ tokens: [Token], after index: Int) -> [Int] {
        let open = index + 1
        guard open < tokens.count else { return [] }
        if tokens[open].text == "{" { return [open] }
        guard tokens[open].text == "(" else { return [] }
        return topLevel(tokens, from: open).filter {
            tokens[$0].text == "{" && ["(", ","].contains(tokens[$0 - 1].text)
        }
    }

    /// The `name = value` keys at the top level of the table literal whose `{` is at `start`.
    static func tableKeys(_ tokens: [Token], at start: Int) -> [Token] {
        topLevel(tokens, from: start).compactMap { j in
            guard isName(tokens[j].text), j + 1 < tokens.count, tokens[j + 1].text == "=",
                ["{", ",", ";"].contains(tokens[j - 1].text)
            else { return nil }
            var key = tokens[j]
            key.index = j
            return key
        }
    }

    private static func message(_ token: Token, _ prefix: String, _ known: Set<String>) -> String {
        var text = "\(token.line): unknown API name '\(prefix)\(token.text)'"
        if let near = nearestName(to: token.text, in: known.sorted()) {
            text += " (did you mean '\(prefix)\(near)'?)"
        }
        return text
    }

    static func isName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first else { return false }
        return (first == "_" || first.properties.isAlphabetic) && first.isASCII
    }

    /// Names, punctuation, and one `"` token for each string literal; comments dropped.
    static func tokenize(_ source: String) -> [Token] {
        let chars = Array(source.unicodeScalars)
        var tokens: [Token] = []
        var i = 0
        var line = 1
        func longBracket(at start: Int) -> (level: Int, end: Int)? {
            guard start < chars.count, chars[start] == "[" else { return nil }
            var j = start + 1
            var level = 0
            while j < chars.count, chars[j] == "=" {
                level += 1
                j += 1
            }
            guard j < chars.count, chars[j] == "[" else { return nil }
            return (level, j + 1)
        }
        func skipLong(from start: Int, level: Int) -> Int {
            var j = start
            let close = "]" + String(repeating: "=", count: level) + "]"
            let closeScalars = Array(close.unicodeScalars)
            while j < chars.count {
                if chars[j] == "\n" { line += 1 }
                if chars[j] == "]", j + closeScalars.count <= chars.count,
                    Array(chars[j..<j + closeScalars.count]) == closeScalars
                {
                    return j + closeScalars.count
                }
                j += 1
            }
            return j
        }
        while i < chars.count {
            let c = chars[i]
            if c == "\n" {
                line += 1
                i += 1
                continue
            }
            if c == " " || c == "\t" || c == "\r" {
                i += 1
                continue
            }
            if c == "-", i + 1 < chars.count, chars[i + 1] == "-" {
                if let bracket = longBracket(at: i + 2) {
                    i = skipLong(from: bracket.end, level: bracket.level)
                } else {
                    while i < chars.count, chars[i] != "\n" { i += 1 }
                }
                continue
            }
            if c == "\"" || c == "'" {
                let startLine = line
                i += 1
                let start = i
                while i < chars.count, chars[i] != c, chars[i] != "\n" {
                    if chars[i] == "\\", i + 1 < chars.count {
                        if chars[i + 1] == "\n" { line += 1 }
                        i += 1
                    }
                    i += 1
                }
                let literal = String(String.UnicodeScalarView(chars[start..<min(i, chars.count)]))
                tokens.append(Token(text: "\"", line: startLine, literal: literal))
                i += 1
                continue
            }
            if let bracket = longBracket(at: i) {
                tokens.append(Token(text: "\"", line: line))
                i = skipLong(from: bracket.end, level: bracket.level)
                continue
            }
            if c == "_" || (c.isASCII && c.properties.isAlphabetic) {
                var j = i
                while j < chars.count,
                    chars[j] == "_"
                        || (chars[j].isASCII
                            && (chars[j].properties.isAlphabetic || chars[j].properties.numericType != nil))
                {
                    j += 1
                }
                tokens.append(Token(text: String(String.UnicodeScalarView(chars[i..<j])), line: line))
                i = j
                continue
            }
            if c.properties.numericType != nil {
                while i < chars.count,
                    chars[i].properties.numericType != nil || chars[i] == "."
                        || chars[i].properties.isAlphabetic
                { i += 1 }
                continue
            }
            if c == ".", i + 1 < chars.count, chars[i + 1] == "." {
                tokens.append(Token(text: "..", line: line))
                i += 2
                continue
            }
            if c == "=", i + 1 < chars.count, chars[i + 1] == "=" {
                tokens.append(Token(text: "==", line: line))
                i += 2
                continue
            }
            if c == ":", i + 1 < chars.count, chars[i + 1] == ":" {
                tokens.append(Token(text: "::", line: line))
                i += 2
                continue
            }
            tokens.append(Token(text: String(c), line: line))
            i += 1
        }
        return tokens
    }
}
