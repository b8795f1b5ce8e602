import Foundation
import Testing

/// `.stackplay.lua`: screen defaults, its errors naming the key, the JUnit folder it names.
@Suite struct ProjectConfigTests {

    // MARK: 5. Config

    @Test func configScreenGivesEveryScreenSettingAsADefault() throws {
        let run = try runScript(
            """
            local s = stackplay.screen {}
            expect(s:settings()):to_equal {
              width = 320, height = 568, layout_direction = "rtl", reduce_motion = true, dynamic_type = "AX2", now = 0,
            }
            expect(stackplay.screen { layout_direction = "ltr" }:settings().layout_direction):to_equal "ltr"

            """,
            files: [
                ".stackplay.lua":
                    "return { screen = { width = 320, height = 568, layout_direction = 'rtl', reduce_motion = true, dynamic_type = 'AX2' } }\n"
            ])
        #expect(run.stderr == "")
        #expect(run.status == 0)
    }

    @Test(arguments: [
        (
            "return { screen = { layout_directon = 'rtl' } }",
            "stackplay: .stackplay.lua: unknown key 'screen.layout_directon' (did you mean 'screen.layout_direction'?)"
        ),
        (
            "return { screen = { layout_direction = 'rlt' } }",
            "stackplay: .stackplay.lua: 'screen.layout_direction': 'ltr' or 'rtl' expected, got 'rlt'"
        ),
        (
            "return { screen = { dynamic_type = 'xLarg' } }",
            "stackplay: .stackplay.lua: 'screen.dynamic_type': unknown size 'xLarg' (did you mean 'xLarge'?)"
        ),
        (
            "return { screen = { reduce_motion = 1 } }",
            "stackplay: .stackplay.lua: 'screen.reduce_motion' must be true or false, got 1"
        ),
    ])
    func badScreenConfigNamesTheKey(config: String, message: String) throws {
        let run = try runScript("\n", files: [".stackplay.lua": config + "\n"])
        #expect(run.status == 64)
        #expect(run.stdout == "")
        #expect(run.stderr == message + "\nSee 'stackplay --help'.\n")
    }

    @Test func configJUnitFolderIsMade() throws {
        let folder = try temporaryFolder([
            "x.lua": "test('t', function() end)\n",
            ".stackplay.lua": "return { junit = 'build/reports/junit.xml' }\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["x.lua"], in: folder)
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(
            FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("build/reports/junit.xml").path))
    }
}
