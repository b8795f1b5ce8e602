import Foundation
import Testing

/// `stackplay check`: requires followed, helpers read, option names checked, no false positives.
@Suite struct CheckCommandTests {

    // MARK: 2. stackplay check

    /// A helper module in the common class pattern, and a script that requires it.
    let helperModule = """
        local Page = {}
        Page.__index = Page
        function Page.new(direction)
          local self = setmetatable({}, Page)
          self.screen = stackplay.screen { layout_direction = direction }
          self.stack = self.screen:notification_stack { items = { "a", "b" }, dismissible = true }
          return self
        end
        function Page:open_pile() self.stack:tap(); self.screen:settle() end
        return Page

        """

    @Test func checkFollowsRequireKnowsHelperMethodsAndHasNoFalsePositives() throws {
        let folder = try temporaryFolder([
            "helpers/page.lua": helperModule,
            "spec.lua": """
            local Page = require "helpers.page"
            test("opens", { tags = { "smoke" } }, function()
              local page = Page.new("rtl")
              page:open_pile()
              page.stack:drag("a", { x = -120 }, { steps = 4, duration = 0.2 })
              expect(page.stack:ids()):to_contain("b")
            end)

            """,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["check", "spec.lua"], in: folder)
        #expect(run.stderr == "")
        #expect(run.stdout == "2 checked, 0 problems\n")
        #expect(run.status == 0)
        // The module runs as the checker reads it.
        let ran = try stackplay(arguments: ["spec.lua"], in: folder)
        #expect(ran.status == 0, "\(ran.stderr)")
    }

    @Test func `check follows require to a package's init.lua, as the sandbox's default path does`() throws {
        let folder = try temporaryFolder([
            "pages/init.lua": helperModule,
            "spec.lua":
                "local Page = require \"pages\"\ntest(\"opens\", function() Page.new(\"rtl\"):open_pile() end)\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["check", "spec.lua"], in: folder)
        #expect(run.stdout == "2 checked, 0 problems\n")
        #expect(run.status == 0)
        let ran = try stackplay(arguments: ["spec.lua"], in: folder)
        #expect(ran.status == 0, "\(ran.stderr)")
    }

    @Test func checkReadsHelpersAndChecksOptionNamesWithSuggestions() throws {
        let folder = try temporaryFolder([
            "helpers/page.lua": helperModule.replacing(
                "layout_direction = direction", with: "layout_directon = direction"
            )
            .replacing("self.stack:tap()", with: "self.stack:tapp()"),
            "spec.lua": """
            local Page = require("helpers.page")
            test("opens", { tgas = { "smoke" } }, function()
              local page = Page.new("rtl")
              page:open_pile()
              page.stack:drag("a", { x = -120 }, { stpes = 4 })
              local w = page.screen:wallet_card_stack { items = { "v", { id = "w", hieght = 9 } }, pile_hieght = 70 }
              page.screen:set_size { widht = 300 }
            end)

            """,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["check", "."], in: folder)
        #expect(run.status == 1)
        #expect(run.stdout == "2 checked, 7 problems\n")
        #expect(
            run.stderr.split(separator: "\n").map(String.init) == [
                "stackplay: ./helpers/page.lua:5: unknown option 'layout_directon' of screen (did you mean 'layout_direction'?)",
                "stackplay: ./helpers/page.lua:9: unknown API name ':tapp' (did you mean ':tap'?)",
                "stackplay: ./spec.lua:2: unknown option 'tgas' of test (did you mean 'tags'?)",
                "stackplay: ./spec.lua:5: unknown option 'stpes' of drag (did you mean 'steps'?)",
                "stackplay: ./spec.lua:6: unknown option 'hieght' of an item (did you mean 'height'?)",
                "stackplay: ./spec.lua:6: unknown option 'pile_hieght' of wallet_card_stack (did you mean 'pile_height'?)",
                "stackplay: ./spec.lua:7: unknown option 'widht' of set_size (did you mean 'width'?)",
            ])
    }

    @Test func checkPassesOnTheScenariosWithTheirHelpersAndKnowsStackplayShow() throws {
        let run = try stackplay("check", "scripts")
        #expect(run.stderr == "")
        let count = try FileManager.default.subpathsOfDirectory(
            atPath: packageRoot.appendingPathComponent("scripts").path
        )
        .filter { $0.hasSuffix(".lua") }.count
        #expect(run.stdout == "\(count) checked, 0 problems\n")
        let show = try temporaryFolder(["s.lua": "print(stackplay.show({ 1 }))\n"])
        defer { try? FileManager.default.removeItem(at: show) }
        #expect(try stackplay(arguments: ["check", "s.lua"], in: show).status == 0)
    }
}
