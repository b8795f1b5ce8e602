import Foundation
import Testing

/// Issue 35 item 6: every public name a script or a command line can miss gets a suggestion. The
/// names are read from what is shipped, so that a new one is covered as it is added: the LuaLS
/// definitions (`types/stackplay.lua`, which APISurfaceTests keeps equal to the registries) for
/// the functions, methods, matchers and options, and `stackplay --help` for the flags.
@Suite struct EverySuggestionTests {
    /// A miss of `name` no other name is nearer to: its first letter doubled (`ccard`, not `cardx`,
    /// which is as near to `cards`).
    static func miss(_ name: String) -> String { String(name.prefix(1)) + name }

    /// The names `types/stackplay.lua` defines: `function RECEIVER:NAME` / `RECEIVER.NAME`, by receiver.
    static func definedMethods() throws -> [String: [String]] {
        let text = try String(
            contentsOf: packageRoot.appendingPathComponent("types/stackplay.lua"), encoding: .utf8)
        var names: [String: [String]] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("function ") {
            let head = line.dropFirst("function ".count).prefix { $0 != "(" }
            guard let separator = head.firstIndex(where: { $0 == ":" || $0 == "." }) else { continue }
            let receiver = String(head[..<separator])
            let name = String(head[head.index(after: separator)...])
            if !(names[receiver]?.contains(name) ?? false) { names[receiver, default: []].append(name) }
        }
        return names
    }

    /// The fields of `---@class stackplay.CLASS` (and of the classes it extends).
    static func fields(of className: String, in text: String) -> [String] {
        var found: [String] = []
        var inClass = false
        var parent: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("---@class ") {
                let declared = line.dropFirst("---@class ".count)
                let name = declared.prefix { $0 != ":" && $0 != " " }
                inClass = name == "stackplay.\(className)"
                if inClass, let colon = declared.firstIndex(of: ":") {
                    parent = String(
                        declared[declared.index(after: colon)...].trimmingPrefix(" ").prefix { $0 != " " }
                    )
                    .replacing("stackplay.", with: "")
                }
                continue
            }
            guard inClass else { continue }
            guard line.hasPrefix("---@field ") else {
                inClass = false
                continue
            }
            found.append(String(line.dropFirst("---@field ".count).prefix { $0 != "?" && $0 != " " }))
        }
        return (parent.map { fields(of: $0, in: text) } ?? []) + found
    }

    @Test func everyFunctionMethodMatcherAndOptionMissedGetsASuggestion() throws {
        let methods = try Self.definedMethods()
        let types = try String(
            contentsOf: packageRoot.appendingPathComponent("types/stackplay.lua"), encoding: .utf8)
        // what each receiver is in the script
        let made = [
            "screen": "stackplay.screen {}",
            "notification_stack": "stackplay.screen {}:notification_stack { items = { 'a' } }",
            "wallet_card_stack": "stackplay.screen {}:wallet_card_stack { items = { 'a' } }",
            "sticky_stacked_cards": "stackplay.screen {}:sticky_stacked_cards { items = { 'a' } }",
            "expectation": "expect(1)",
        ]
        var checks: [(call: String, name: String)] = []
        for name in methods["stackplay"] ?? [] {
            checks.append(("local _ = stackplay.\(Self.miss(name))", name))
        }
        for (receiver, value) in made.sorted(by: { $0.key < $1.key }) {
            var names = methods[receiver] ?? []
            if receiver != "screen", receiver != "expectation" {
                names = (methods["component"] ?? []) + names
            }
            for name in names {
                // an expectation is finished after the miss, else it would fail its test as unfinished
                let call =
                    receiver == "expectation"
                    ? "local o = \(value); local _, e = pcall(function() o:\(Self.miss(name))() end); o:to_equal(1); error(e, 0)"
                    : "local o = \(value); o:\(Self.miss(name))()"
                checks.append((call, name))
            }
        }
        let factories = [
            ("screen_options", "stackplay.screen { %@ = 1 }"),
            (
                "notification_stack_options",
                "stackplay.screen {}:notification_stack { items = { 'a' }, %@ = 1 }"
            ),
            (
                "wallet_card_stack_options",
                "stackplay.screen {}:wallet_card_stack { items = { 'a' }, %@ = 1 }"
            ),
            (
                "sticky_stacked_cards_options",
                "stackplay.screen {}:sticky_stacked_cards { items = { 'a' }, %@ = 1 }"
            ),
            ("gesture_options", "local s = stackplay.screen {}; s:drag(1, 1, { x = 1 }, { %@ = 1 })"),
            ("size_options", "stackplay.screen {}:set_size { %@ = 1 }"),
        ]
        for (className, template) in factories {
            let names = Self.fields(of: className, in: types)
            #expect(!names.isEmpty, "types/stackplay.lua has no class stackplay.\(className)")
            for name in names where name != "items" {
                checks.append((template.replacing("%@", with: Self.miss(name)), name))
            }
        }
        #expect(checks.count > 100)
        // one test a miss, each expecting the suggestion of the name it missed
        var script = ""
        for (index, check) in checks.enumerated() {
            script += """
                test("\(index) \(check.name)", function()
                  expect(function() \(check.call) end):to_raise("(did you mean '\(check.name)'?)")
                end)

                """
        }
        let run = try runScript(script)
        #expect(run.status == 0, "\(run.stderr.prefix(4000))")
        #expect(run.stdout.hasSuffix("\(checks.count) passed, 0 failed\n"))
    }

    @Test func everyFlagMissedGetsASuggestion() throws {
        let help = try stackplay("--help")
        let flags = help.stdout.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("--"), line.hasPrefix("  ") else { return nil }
            return String(trimmed.prefix { $0 != " " && $0 != "," && $0 != "[" })
        }
        #expect(flags.count > 30)
        for flag in flags {
            let missed = "--" + Self.miss(String(flag.dropFirst(2)))
            let run = try stackplay(missed, "x.lua")
            #expect(run.status == 64, "\(missed)")
            #expect(run.stdout == "")
            #expect(run.stderr.contains("(did you mean '\(flag)'?)"), "\(missed): \(run.stderr)")
        }
    }
}
