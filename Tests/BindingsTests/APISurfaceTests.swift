import Foundation
import StackModel
import Testing
import Traces

@testable import Bindings

// The API as a script sees it: every observation returns its documented fields, and the LuaLS
// definitions in types/stackplay.lua name every method there is.

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// The sorted keys of each table `code` returns, as `"a b c"`.
func keys(_ code: String) throws -> [String] {
    let lua = try makeState()
    let values = try lua.run(
        """
        screen = stackplay.screen {}
        stack = screen:notification_stack { items = { "messages", "calendar", "mail" }, dismissible = true, y = 0 }
        wallet = screen:wallet_card_stack { items = { "visa", "amex" }, y = 400, height = 400 }
        sticky = stackplay.screen {}:sticky_stacked_cards { items = { "a", "b", "c" } }
        stack:tap(); screen:settle()
        local function keys(t)
          local list = {}
          for k in pairs(t) do list[#list + 1] = tostring(k) end
          table.sort(list)
          return table.concat(list, " ")
        end
        local results = table.pack(\(code))
        for i = 1, results.n do results[i] = type(results[i]) == "table" and keys(results[i]) or type(results[i]) end
        return table.unpack(results, 1, results.n)
        """, name: "@surface.lua")
    return values.map { $0.string ?? "?" }
}

extension BindingsTests {
    @Suite struct APISurface {
        static let card = "height hittable id opacity scale visible width x y z"
        static let rect = "height width x y"

        @Test func cardsAndFrames() throws {
            #expect(try keys("stack:card(\"calendar\")") == [Self.card])
            #expect(
                try keys("stack:cards()[1], wallet:cards()[2], sticky:cards()[3]") == [
                    Self.card, Self.card, Self.card,
                ])
            #expect(
                try keys("stack:frame(), wallet:frame(), sticky:frame()") == [
                    Self.rect, Self.rect, Self.rect,
                ])
            #expect(try keys("stack:part(\"header\")") == ["height hittable name opacity width x y"])
            // A card's keys are spelled out once, in the order of the fields a writer names.
            #expect(LuaSnapshot.CardField.keys.names == LuaSnapshot.CardField.allCases.map { "\($0)" })
        }

        @Test func componentState() throws {
            let state = try keys("stack:state(), wallet:state(), sticky:state()")
            #expect(state[0].split(separator: " ").contains("expanded"))
            #expect(state[0].split(separator: " ").contains("progress"))
            #expect(state[0].split(separator: " ").contains("ids"))
            #expect(state[1].split(separator: " ").contains("count"))
            #expect(state[2].split(separator: " ").contains("scroll_offset"))
            #expect(
                try keys(
                    "stack:ids(), stack:count(), stack:expanded(), stack:open(), stack:progress(), stack:dismissed()"
                )
                    == ["1 2 3", "number", "boolean", "boolean", "number", ""])
            #expect(
                try keys("wallet:selection(), wallet:step(), wallet:peek()") == ["nil", "number", "number"])
            #expect(
                try keys("sticky:scroll_offset(), sticky:max_offset(), sticky:content_height()") == [
                    "number", "number", "number",
                ])
            #expect(
                try keys("stack:name(), stack:kind(), stack:point(\"calendar\")") == [
                    "string", "string", "number", "number",
                ])
        }

        @Test func hitsElementsSettingsSnapshots() throws {
            #expect(try keys("stack:tap(\"calendar\")") == ["card component target"])
            #expect(try keys("screen:hit_test(1, 843)") == ["nil"])
            #expect(try keys("wallet:drag(\"visa\", { y = 10 })") == ["card component target"])
            let element =
                "actions activation_point component frame hidden hint id label sort_priority traits value"
            #expect(try keys("stack:accessibility()[1], screen:accessibility()[1]") == [element, element])
            #expect(
                try keys("stack:accessibility()[1].activation_point, stack:accessibility()[1].frame") == [
                    "x y", Self.rect,
                ])
            #expect(
                try keys("screen:settings()") == [
                    "dynamic_type height layout_direction now reduce_motion width"
                ])
            #expect(
                try keys("screen:snapshot(), screen:snapshot().components[1]")
                    == ["components settings time", "cards frame kind leaving name parts state"])
            #expect(
                try keys("screen:now(), screen:dump(), screen:touch_down(1, 843)") == [
                    "number", "string", "number", "nil",
                ])
        }

        @Test func typesFileNamesEveryMethod() throws {
            let text = try String(
                contentsOf: packageRoot.appendingPathComponent("types/stackplay.lua"), encoding: .utf8)
            #expect(text.hasPrefix("---@meta"))
            let api = StackModelModule.apiNames
            let missing = api.methods.filter { !text.contains(":\($0)(") }.sorted()
            #expect(missing == [])
            #expect(
                api.fields.filter { $0 != "version" && !text.contains("stackplay.\($0)(") }.sorted() == [])
            #expect(text.contains("---@field version string"))
            for global in ["test", "skip", "only", "before_each", "after_each", "expect", "explore"] {
                #expect(text.contains("function \(global)("), "types/stackplay.lua lacks \(global)")
            }
        }

        /// The other way round: every function the definitions declare exists, so the file cannot
        /// keep a method that was renamed or removed.
        @Test func typesFileDeclaresOnlyWhatExists() throws {
            let text = try String(
                contentsOf: packageRoot.appendingPathComponent("types/stackplay.lua"), encoding: .utf8)
            let api = StackModelModule.apiNames
            let globals: Set = ["test", "skip", "only", "before_each", "after_each", "expect", "explore"]
            var declared = 0
            for match in text.matches(of: /(?m)^function ([a-z_]+)(?:[:.]([a-z_]+))?\(/) {
                declared += 1
                let owner = String(match.output.1)
                guard let member = match.output.2.map(String.init) else {
                    #expect(
                        globals.contains(owner),
                        "types/stackplay.lua declares a global \(owner) that does not exist")
                    continue
                }
                let exists = owner == "stackplay" ? api.fields.contains(member) : api.methods.contains(member)
                #expect(exists, "types/stackplay.lua declares \(owner):\(member), which does not exist")
            }
            #expect(declared > 50)
        }

        /// Every registered kind is in the definitions as it declares itself: its options class, its
        /// factory on a screen, its class with every method of its own, and its name in the unions
        /// of kinds; the methods every kind has are documented on the shared class.
        @Test func typesFileHasEveryRegisteredKind() throws {
            let text = try String(
                contentsOf: packageRoot.appendingPathComponent("types/stackplay.lua"), encoding: .utf8)
            let kinds = LuaComponentKinds.standard.types
            // The trace side's standard kinds are the same, in the same order.
            #expect(LuaComponentKinds.standard.traces.kinds == ComponentKinds.standard.kinds)
            for kind in kinds {
                #expect(kind.undocumentedMethods == [], "\(kind.luaName) does not document these methods")
                #expect(
                    text.contains(kind.luaDefinitions), "types/stackplay.lua lacks \(kind.luaName)'s class")
                #expect(
                    text.contains(kind.optionsDefinition),
                    "types/stackplay.lua lacks \(kind.luaName)'s options")
                #expect(
                    text.contains(kind.factoryDefinition), "types/stackplay.lua lacks screen:\(kind.luaName)")
            }
            let names = kinds.map { "\"\($0.luaName)\"" }.joined(separator: "|")
            #expect(text.contains("---@field kind \(names)\n"))
            #expect(text.contains("---@return \(names)\nfunction component:kind() end"))
            let classes = kinds.map { "stackplay.\($0.luaName)" }.joined(separator: "|")
            #expect(text.contains("---@return table<string, \(classes)> components"))
            let common = Set(ComponentMethods.common(NotificationStack.self).keys)
            for name in common.sorted() { #expect(text.contains("function component:\(name)(")) }
        }
    }
}
