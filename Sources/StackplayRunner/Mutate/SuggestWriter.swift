import Codegen
import Exploration
import StackModel
import Traces

/// The test `mutate --suggest` writes for a survivor (docs/mutate.md): the screen and the steps
/// as a person writes them (``ScenarioWriter``, `stackplay codegen`'s writer: `stack:drag("mail",
/// { x = -120 })` for a drag that went down on a card, options that differ from the defaults
/// only), one `expect` on what a user sees that the mutant gets wrong, with the plainest matcher
/// that holds on the model and fails on the mutant, a name and a comment saying which behaviour
/// it pins and why the mutant fails it. No unused locals: it passes `luacheck` with the
/// stackplay standard.
enum SuggestWriter {
    /// The first line of every suggested test: how `--suggest` knows a file it may write over.
    static let mark = "-- Written by `stackplay mutate --suggest`"

    /// The steps as `stackplay codegen` writes them from a recording of `actions` on the real
    /// model of `explorer`'s setup: the screen line, then the calls (a call may span lines).
    static func codegenBody(_ actions: [ExploreAction], explorer: Explorer) -> [String]? {
        var recorder: TraceRecorder?
        guard
            (try? explorer.run(
                actions, replay: false,
                recorder: { recorder = TraceRecorder(screen: $0, stackplay: "suggest", keepsValues: true) }))
                != nil,
            let trace = try? recorder?.trace(file: "suggest.jsonl", kinds: explorer.generator.kinds),
            let writer = try? ScenarioWriter(trace: trace)
        else { return nil }
        // VoiceOver's double tap as the README says it (the probes check the test as written)
        return writer.body.map { $0.replacing(":action(\"activate\", ", with: ":activate(") }
    }

    /// The steps as probes run them: the world's set-up, then each step through the README's API.
    static func plainBody(_ actions: [ExploreAction], world: SuggestWorld) -> [String] {
        var declared: Set<Int> = []
        let setup = world.lua.split(separator: "\n").map { String($0.dropFirst(2)) }
        return [setup.joined(separator: "\n")]
            + actions.map { $0.documentedLua(variable: world.variable, declared: &declared) }
    }

    /// The expectation that `difference` makes: the real model's value with a matcher the
    /// mutant's value fails.
    static func expectation(_ difference: SuggestProbe.Difference) -> String {
        "expect(\(difference.expression))" + matcher(difference.real, against: difference.mutant)
    }

    /// `:to_equal(3)` for a whole number, `:to_be_near(0.84, 0.01)` for another (the fewest
    /// decimals whose tolerance the mutant's value is outside of), `:to_equal { "a", "b" }` for a
    /// table, `:to_be_nil()`, `:never():to_be_nil()` for a part or point that is there.
    static func matcher(_ real: SuggestProbe.Value, against mutant: SuggestProbe.Value) -> String {
        switch real.kind {
        case "number":
            guard let value = Double(real.text) else { return ":to_equal(\(real.text))" }
            guard let near = near(real, against: mutant) else { return ":to_equal(\(luaNumber(value)))" }
            return ":to_be_near(\(luaNumber(near.value)), \(luaNumber(near.tolerance)))"
        case "boolean": return ":to_equal(\(real.text))"
        case "string": return ":to_equal(\(luaString(real.text)))"
        case "nil": return ":to_be_nil()"
        case "present": return real.text == "true" ? ":never():to_be_nil()" : ":to_be_nil()"
        default: return ":to_equal \(real.text)"
        }
    }

    /// A number that is not whole, to the fewest decimals whose tolerance (one unit of the last)
    /// the mutant's value is outside of; nil for a whole number (or one no tolerance tells apart).
    static func near(_ real: SuggestProbe.Value, against mutant: SuggestProbe.Value) -> (
        value: Double, tolerance: Double
    )? {
        guard real.kind == "number", let value = Double(real.text),
            value.rounded() != value || abs(value) >= 1e15
        else { return nil }
        let theirs = mutant.kind == "number" ? Double(mutant.text) : nil
        for decimals in 0...6 {
            let unit = SuggestRounding.round(pow10(-decimals), pow10(-decimals))
            let shown = SuggestRounding.round(value, unit)
            if let theirs, abs(theirs - shown) <= unit * (1 + 1e-9) { continue }
            return (shown, unit)
        }
        return nil
    }

    private static func pow10(_ exponent: Int) -> Double {
        var out = 1.0
        for _ in 0..<abs(exponent) { out = exponent < 0 ? out / 10 : out * 10 }
        return out
    }

    /// The whole file.
    static func test(
        _ mutant: Mutant, body: [String], difference: SuggestProbe.Difference, world: SuggestWorld, seed: Int
    ) -> String {
        var lines: [String] = []
        for call in body {
            for line in call.split(separator: "\n", omittingEmptySubsequences: false) {
                lines.append(line.isEmpty ? "" : "  \(line)")
            }
        }
        lines.append("  " + expectation(difference))
        lines = withoutUnusedLocals(lines).flatMap { wrapped($0) }
        let behaviour = behaviours[mutant.spec] ?? mutant.spec
        let saw = phrase(difference)
        var out = "\(mark) (seed \(seed)) for the mutant \(mutant.id).\n"
        out += comment(
            "\(mutant.spec): \(behaviour). It pins that from \(world.title): \(saw). The mutant "
                + "(\(mutant.summary)) fails it: there \(difference.expression) is "
                + "\(shown(difference.mutant)), not \(shown(difference.real)).")
        // short enough for the `test(...)` line to keep within luacheck's 120 columns
        var name = "\(mutant.spec) \(saw)"
        if name.count + world.title.count + 3 <= 96 { name += " (\(world.title))" }
        if name.count > 96 { name = String(name.prefix(93)) + "..." }
        out += "test(\(luaString(name)), function()\n"
        out += lines.joined(separator: "\n") + "\nend)\n"
        return out
    }

    /// `text` as comment lines of at most 100 characters.
    static func comment(_ text: String) -> String {
        var out = ""
        var line = "--"
        for word in text.split(separator: " ") {
            if line.count + 1 + word.count > 100, line != "--" {
                out += line + "\n"
                line = "--"
            }
            line += " " + luaComment(String(word))
        }
        return out + line + "\n"
    }

    /// A value as a sentence says it.
    static func shown(_ value: SuggestProbe.Value) -> String {
        switch value.kind {
        case "number": return Double(value.text).map(luaNumber) ?? value.text
        case "string": return luaString(value.text)
        case "present": return value.text == "true" ? "there" : "nil"
        default: return value.text
        }
    }

    /// What the expectation checks, in words: "calendar's x is 16", "a touch at (195, 589) lands
    /// on nothing", "calendar stays", "mail is gone".
    static func phrase(_ difference: SuggestProbe.Difference) -> String {
        let (expression, value) = (difference.expression, difference.real)
        var said = shown(value)
        if let near = near(value, against: difference.mutant) { said = "about " + luaNumber(near.value) }
        if expression.hasSuffix(":ids()") {
            let real = ids(value.text)
            let theirs = ids(difference.mutant.text)
            let kept = real.filter { !theirs.contains($0) }
            let gone = theirs.filter { !real.contains($0) }
            if !kept.isEmpty, gone.isEmpty { return names(kept) + (kept.count == 1 ? " stays" : " stay") }
            if !gone.isEmpty, kept.isEmpty {
                return names(gone) + (gone.count == 1 ? " is gone" : " are gone")
            }
            return "the cards are " + (real.isEmpty ? "none" : real.joined(separator: ", "))
        }
        if expression.hasPrefix("screen:hit_test(") {
            let point = expression.dropFirst("screen:hit_test".count)
            if value.kind == "nil" { return "a touch at \(point) lands on nothing" }
            if let target = value.text.firstMatch(of: /target = "([^"]*)"/)?.1 {
                let on = target.hasPrefix("card:") ? "card " + target.dropFirst(5) : "the " + target
                return "a touch at \(point) lands on \(on)"
            }
        }
        if let card = expression.firstMatch(of: /:card\("([^"]*)"\)\.([a-z]+)$/) {
            return "\(card.1)'s \(card.2) is \(said)"
        }
        if let element = expression.firstMatch(of: /:accessibility\(\)\[([0-9]+)\]\.([a-z_]+)$/) {
            return "VoiceOver's element \(element.1) has \(element.2) \(said)"
        }
        if expression.hasPrefix("#"), expression.hasSuffix(":accessibility()") {
            return "VoiceOver reads \(said) elements"
        }
        if expression.hasPrefix("#"), expression.hasSuffix(":leaving()") {
            return said == "1" ? "1 card is leaving" : "\(said) cards are leaving"
        }
        if let method = expression.firstMatch(of: /^[a-z_]+:([a-z_]+)\(\)$/) {
            return "\(method.1) is \(said)"
        }
        return "\(expression) is \(said)"
    }

    /// The strings of a list shown as Lua (`{ "a", "b" }`).
    private static func ids(_ text: String) -> [String] {
        text.matches(of: /"((?:[^"\\]|\\.)*)"/).map { String($0.1) }
    }

    /// `a`, `a and b`, `a, b and c`.
    private static func names(_ list: [String]) -> String {
        list.count < 2 ? list.joined() : list.dropLast().joined(separator: ", ") + " and " + list.last!
    }

    /// `line` broken after its commas (outside strings; those that close a table, `},`, when that
    /// is enough) into lines of at most 120 columns, the ones after it indented two more
    /// (luacheck's `max_line_length`): a long `items = { ... }`.
    static func wrapped(_ line: String, width: Int = 120, closing: Bool = true) -> [String] {
        guard line.count > width else { return [line] }
        var pieces: [String] = []
        var piece = ""
        var quoted = false
        var escaped = false
        for character in line {
            piece.append(character)
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = quoted
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ",", !quoted, !closing || piece.dropLast().last == "}" {
                pieces.append(piece)
                piece = ""
            }
        }
        pieces.append(piece)
        if closing, pieces.contains(where: { $0.count > width - 8 }) {
            return wrapped(line, width: width, closing: false)
        }
        let indent = String(line.prefix { $0 == " " }) + "  "
        var out: [String] = []
        var current = ""
        for piece in pieces {
            let next =
                current.isEmpty ? (out.isEmpty ? piece : indent + piece.drop { $0 == " " }) : current + piece
            if next.count > width, !current.isEmpty {
                out.append(current)
                current = indent + piece.drop { $0 == " " }
            } else {
                current = next
            }
        }
        out.append(current)
        return out
    }

    /// `lines` with `local x = ` (and a finger's `f1 = `) taken off an assignment whose variable no
    /// later line reads: the call stays, the unused local goes (luacheck's W211 and W311).
    static func withoutUnusedLocals(_ lines: [String]) -> [String] {
        var out = lines
        for (index, line) in lines.enumerated() {
            guard let match = line.firstMatch(of: /^(\s*)(local[ ][A-Za-z_][A-Za-z0-9_]*|f[0-9]+)[ ]=[ ]/)
            else { continue }
            let name = String(match.2.split(separator: " ").last ?? match.2)
            if !lines[(index + 1)...].contains(where: { reads($0, name) }) {
                out[index] = String(match.1) + line[match.range.upperBound...]
            }
        }
        return out
    }

    /// Whether `line` names `variable` (as a whole word, outside strings as far as a scenario's
    /// lines go).
    private static func reads(_ line: String, _ variable: String) -> Bool {
        var rest = line[...]
        while let range = rest.firstRange(of: variable) {
            let before =
                range.lowerBound == line.startIndex ? nil : line[line.index(before: range.lowerBound)]
            let after = range.upperBound == line.endIndex ? nil : line[range.upperBound]
            func word(_ c: Character?) -> Bool {
                c.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "\"" } ?? false
            }
            if !word(before), !word(after) { return true }
            rest = line[range.upperBound...]
        }
        return false
    }

    /// What each behaviour id says, in a few words (docs/behaviours.md has the whole of each).
    static let behaviours: [String: String] = [
        "G2": "with Reduce Motion on, changes show at once",
        "G4": "a touch lands on the top-most card it can touch",
        "G5": "a tap strays at most 45 pt for at most 0.75 s, a drag starts at its minimum distance",
        "G6": "every gesture has a VoiceOver path",
        "N1": "the stack is open when expanded or holding fewer than 2 cards",
        "N2": "the cards lie spacing apart open and peek apart closed",
        "N3": "the cards behind the first are drawn smaller while closed",
        "N4": "closed, only the first three cards show",
        "N5": "the first card is on top",
        "N6": "a tap on the closed stack opens it",
        "N7": "opening and closing spring(0.45, 0.2)",
        "N8": "expanded with more than one card, a 44 pt header shows",
        "N9": "a card is swiped only while the stack is open and onDismiss is set",
        "N10": "a swipe starts after 20 pt and moves a card towards the leading edge only",
        "N11": "right to left, a swipe to the right moves a card right",
        "N12": "a swiped card fades, by at most 0.6 at 275 pt",
        "N13": "a card let go past 110 pt leaves, else springs back with spring(0.35, 0.25)",
        "N14": "a change in the number of cards moves the others with spring(0.4, 0.15)",
        "N15": "VoiceOver hears the stack as the seed says, and Clear dismisses only a card a swipe could",
        "N17": "a removed card fades out with the count spring while the stack's height follows",
        "N18": "the header follows Dynamic Type",
        "S1": "each card's pin line is top plus peek for the first max_peeking cards",
        "S2": "a card that would pass its pin line stays on it",
        "S3": "a pinned card shrinks 0.05 per card of travel, for at most 4 cards",
        "S4": "with Reduce Motion on, pinned cards do not shrink",
        "S5": "later cards are drawn over earlier ones",
        "S6": "the scroll offset stays within the content, and a pan starts after 10 pt",
        "W1": "the step between cards is peek, or less when they would not fit",
        "W2": "a selected card goes to the top and the others gather in the pile",
        "W3": "later cards are drawn over earlier ones, each card_height high",
        "W4": "a tap selects a card, or clears the selection",
        "W5": "the selected card's details show below it",
        "W6": "selection changes spring(0.5, 0.2)",
        "W7": "a pressed card is drawn at 0.98 while the finger is on it",
        "W8": "the stack cuts what falls below its bottom edge",
        "W9": "Escape clears the selection",
        "W10": "VoiceOver hears each card as the seed says",
        "W11": "a selection that names no item counts as none",
        "W12": "peek grows with Dynamic Type",
    ]
}
