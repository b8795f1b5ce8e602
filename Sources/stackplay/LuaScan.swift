import Bindings
import StackModel

/// A light reading of Lua source for `stackplay check`: it skips comments and strings and finds
/// `stackplay.NAME` and method calls `x:NAME(...)`, so that a misspelt API name is caught before
/// anything runs. Methods the script defines itself (`function M:name`) and string methods are
/// known too.
enum LuaScan {
    struct Token {
        var text: String
        var line: Int
    }

    static let stringMethods: Set<String> = [
        "byte", "char", "dump", "find", "format", "gmatch", "gsub", "len", "lower", "match", "pack",
        "packsize", "rep",
        "reverse", "sub", "unpack", "upper",
    ]

    /// `line: message` for every unknown name.
    static func unknownNames(in source: String, fields: Set<String>, methods: Set<String>) -> [String] {
        let tokens = tokenize(source)
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
        let known = methods.union(stringMethods).union(defined)
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
                ["(", "{", "\"", "'"].contains(tokens[i + 1].text),
                !known.contains(token.text)
            {
                problems.append(message(token, ":", known))
            }
        }
        return problems
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
                tokens.append(Token(text: "\"", line: line))
                i += 1
                while i < chars.count, chars[i] != c, chars[i] != "\n" {
                    if chars[i] == "\\", i + 1 < chars.count {
                        if chars[i + 1] == "\n" { line += 1 }
                        i += 1
                    }
                    i += 1
                }
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
