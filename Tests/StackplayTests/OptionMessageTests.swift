import Foundation
import Testing

// Every option of every component kind, given a bad value through the built binary: each refusal
// is in lauxlib's form with the option's Lua (snake_case) name, as every other option error is.
// The options come from types/stackplay.lua, which the kinds' declarations generate (a Bindings
// test keeps the two equal), so a new option is checked without touching this file.

/// `kind → [(option, LuaLS type, doc)]`: the shared `component_options` and each kind's own.
func declaredComponentOptions() throws -> [String: [(name: String, type: String, doc: String)]] {
    let text = try String(
        contentsOf: packageRoot.appendingPathComponent("types/stackplay.lua"), encoding: .utf8)
    var shared: [(name: String, type: String, doc: String)] = []
    var kinds: [String: [(name: String, type: String, doc: String)]] = [:]
    var current: String?
    for line in text.split(separator: "\n").map(String.init) {
        if line.hasPrefix("---@class ") {
            let name = line.dropFirst("---@class ".count).split(separator: ":").first.map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            if name == "stackplay.component_options" {
                current = ""
            } else if let name, name.hasSuffix("_options"), line.contains(": stackplay.component_options") {
                current = String(name.dropFirst("stackplay.".count).dropLast("_options".count))
                kinds[current!] = []
            } else {
                current = nil
            }
            continue
        }
        guard let kind = current, line.hasPrefix("---@field ") else {
            if !line.hasPrefix("---") { current = nil }
            continue
        }
        let parts = line.dropFirst("---@field ".count).split(separator: " ", maxSplits: 2).map(String.init)
        let field = (
            name: parts[0].replacingOccurrences(of: "?", with: ""), type: parts[1],
            doc: parts.count > 2 ? parts[2] : ""
        )
        if kind.isEmpty { shared.append(field) } else { kinds[kind]!.append(field) }
    }
    return kinds.mapValues { own in shared.filter { s in !own.contains { $0.name == s.name } } + own }
}

/// Bad values for an option of LuaLS type `type`, as Lua source, with whether each must fail
/// (a negative number must fail only where the doc says `>= 0`).
func badValues(type: String, doc: String) -> [(lua: String, mustFail: Bool)] {
    switch type {
    case "number", "integer":
        return [("-20", doc.contains(">= 0")), ("0/0", true), ("1/0", true), ("'wide'", true)]
            + (type == "integer" ? [("1.5", true)] : [])
    case "boolean": return [("'yes'", true)]
    case "string", "string|integer": return [("{}", true)]
    default: return [("5", true)]  // items: a list of cards
    }
}

@Suite struct OptionMessageTests {
    @Test func everyComponentOptionsRefusalIsInLauxlibFormWithItsLuaName() throws {
        let kinds = try declaredComponentOptions()
        #expect(Set(kinds.keys) == ["notification_stack", "wallet_card_stack", "sticky_stacked_cards"])
        var cases: [(kind: String, option: String, value: String, mustFail: Bool)] = []
        for (kind, options) in kinds.sorted(by: { $0.key < $1.key }) {
            #expect(options.contains { $0.name == "items" }, "\(kind) lists the shared options")
            for option in options {
                for value in badValues(type: option.type, doc: option.doc) {
                    cases.append((kind, option.name, value.lua, value.mustFail))
                }
            }
        }
        // One line printed per case: its index, then "ok" or the error.
        var script = "test('options', function()\n  local screen = stackplay.screen {}\n  local made = 0\n"
        for (index, item) in cases.enumerated() {
            let items = item.option == "items" ? "" : "items = { 'a', 'b' }, "
            let name = item.option == "name" ? "" : "name = 'c\(index)', "
            script += """
                  do
                    local ok, err = pcall(function()
                      return screen:\(item.kind) { \(items)\(name)\(item.option) = \(item.value) }
                    end)
                    print(\(index) .. '\\t' .. (ok and 'ok' or tostring(err)))
                  end

                """
        }
        script += "end)\n"
        let run = try runScript(script, ["--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let test = try #require((document["tests"] as? [[String: Any]])?.first)
        let output = try #require(test["output"] as? String)
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.count == cases.count)
        for line in lines {
            let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
            let item = cases[Int(fields[0])!]
            let said = fields.count > 1 ? fields[1] : ""
            if said == "ok" {
                #expect(!item.mustFail, "\(item.kind) { \(item.option) = \(item.value) } was accepted")
                continue
            }
            let form = "x.lua:\\d+: bad argument #1 to '\(item.kind)' \\(field '\(item.option)': [^)]+"
            #expect(
                said.range(of: "^" + form, options: .regularExpression) != nil,
                "\(item.kind) { \(item.option) = \(item.value) }: \(said)")
        }
    }

    @Test func aNegativePileHeightNamesTheLuaOption() throws {
        let run = try runScript(
            """
            local screen = stackplay.screen {}
            screen:wallet_card_stack { items = { "a" }, pile_height = -20 }
            """)
        #expect(run.status == 1)
        #expect(
            run.stderr.contains(
                "stackplay: x.lua:2: bad argument #1 to 'wallet_card_stack' (field 'pile_height': number must not be negative, got -20)"
            ), "\(run.stderr)")
        #expect(!run.stderr.contains("pileHeight"))
    }
}
