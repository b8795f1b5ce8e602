import Foundation
import Testing

/// What the README and the pages under docs/ say agrees with what stackplay does: the names they
/// give, the examples they show (each runs), and the numbers they state.
@Suite struct DocumentationTests {
    @Test func readmeAndTypesNameEveryReachableFunctionAndOnlyThose() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        // What a script can reach, listed by a script: the stackplay table, every class's methods
        // (through the runtime's own did-you-mean list) and the matchers.
        let run = try runScript(
            """
            local names = {}
            for k in pairs(stackplay) do names[#names + 1] = "stackplay." .. k end
            local probe = expect(1)
            local e = getmetatable(probe).__index
            for k in pairs(e) do names[#names + 1] = ":" .. k end
            probe:to_equal(1)
            local s = stackplay.screen {}
            local objects = {
              s, s:notification_stack { items = { "a" } }, s:wallet_card_stack { items = { "b" }, name = "w" },
              s:sticky_stacked_cards { items = { "c" }, name = "s" },
            }
            for _, object in ipairs(objects) do
              local _, message = pcall(function() return object.qqqqqqqqqqqqqqqq end)
              for name in message:match("it has: ([^)]*)"):gmatch("[%w_]+") do names[#names + 1] = ":" .. name end
            end
            table.sort(names)
            print(table.concat(names, "\\n"))

            """)
        #expect(run.status == 0, "\(run.stderr)")
        let reachable = run.stdout.split(separator: "\n").map { $0.trimmingPrefix("      | ") }.filter {
            $0.hasPrefix("stackplay.") || $0.hasPrefix(":")
        }.map(String.init)
        #expect(reachable.count > 20)
        for name in reachable where !name.hasPrefix(":__") {
            // `stackplay.show`, or a method as the reference writes it: `:tap(`, `` `expanded()` ``,
            // `screen:notification_stack {`, "also to_not()".
            let bare = name.hasPrefix(":") ? String(name.dropFirst()) : name
            let documented =
                readme.contains(name) || readme.contains("`\(bare)(") || readme.contains(" \(bare)(")
                || readme.contains("`\(bare) ") || readme.contains(" \(bare)\n")
                || readme.contains(" \(bare) ")
            #expect(documented, "README.md does not mention \(name)")
        }
        // `stackplay check` knows every name a script can reach.
        let calls = reachable.filter { !$0.hasPrefix(":__") }.map {
            $0.hasPrefix(":") ? "x\($0)()" : "\($0)()"
        }
        .joined(separator: "\n")
        let folder = try temporaryFolder(["all.lua": "local x = {}\n" + calls + "\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let check = try stackplay(arguments: ["check", "all.lua"], in: folder)
        #expect(check.stderr == "")
        #expect(check.status == 0)
        // And every matcher the README shows exists.
        let shown = Set(readme.matches(of: /:(to_[a-z_]+)\(/).map { ":" + String($0.output.1) })
        #expect(shown.subtracting(reachable).sorted() == [])
    }

    /// README.md and the pages under docs/, each a reader may copy from.
    static let pages: [String] = {
        let docs =
            (try? FileManager.default.contentsOfDirectory(
                atPath: packageRoot.appendingPathComponent("docs").path))
            ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }()

    @Test func `every lua example of the README and the docs runs as a scenario`() throws {
        var blocks: [(page: String, text: String)] = []
        for page in Self.pages {
            let text = try String(contentsOf: packageRoot.appendingPathComponent(page), encoding: .utf8)
            // A block marked `<!-- ..., not a scenario -->` (a .luacheckrc, stock lua5.4 with the Lua
            // module) is not for the runner; `make test-lua-module` runs the module's own examples.
            blocks += text.matches(of: /(<!--[^\n]*-->\n)?```lua\n((?:.|\n)*?)```/)
                .filter { !($0.output.1 ?? "").contains("not a scenario") }.map {
                    (page, String($0.output.2))
                }
        }
        #expect(blocks.count >= 7)
        let wallet = try String(
            contentsOf: packageRoot.appendingPathComponent(
                "\(fixtures)/traces/golden/tests-stackplaytests-fixtures-traces-session-lua--wallet-open-a-card-escape-select-new-height-ed5161aa.jsonl"
            ), encoding: .utf8)
        for (index, (page, block)) in blocks.enumerated() {
            // The config example is a `.stackplay.lua`: run with it, over one passing scenario.
            let isConfig = block.hasPrefix("return {")
            var files = ["traces/wallet.jsonl": wallet, "scripts/ok.lua": "test('ok', function() end)\n"]
            if isConfig { files[".stackplay.lua"] = block } else { files["example.lua"] = block }
            let folder = try temporaryFolder(files)
            defer { try? FileManager.default.removeItem(at: folder) }
            let run = try stackplay(arguments: isConfig ? [] : ["example.lua"], in: folder)
            #expect(run.status == 0, "\(page) block \(index + 1) fails:\n\(block)\n\(run.stderr)")
            #expect(run.stdout.contains(" 0 failed"), "\(page) block \(index + 1): \(run.stdout)")
        }
    }

    @Test func `the number of scenarios the docs state is the number scripts/ has`() throws {
        let list = try stackplay(arguments: ["--list", "scripts"])
        #expect(list.status == 0, "\(list.stderr)")
        let count = list.stdout.split(separator: "\n").filter { $0.hasPrefix("scripts/") }.count
        #expect(count > 50)
        var stated = 0
        for page in Self.pages {
            let text = try String(contentsOf: packageRoot.appendingPathComponent(page), encoding: .utf8)
            for match in text.matches(of: /(\d+) tests in `scripts\/`/) {
                stated += 1
                #expect(
                    Int(match.output.1) == count,
                    "\(page) says \(match.output.1) tests in scripts/, it has \(count)")
            }
        }
        #expect(stated >= 1)
    }

    /// `three`, `twelve`: the number words the docs write counts in.
    static let numberWords = [
        "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
        "ten": 10, "eleven": 11, "twelve": 12,
    ]

    @Test func `every other count the README and the docs state is the code's`() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        // "models of three SwiftUI components": the kinds types/stackplay.lua declares.
        let kinds = try declaredComponentOptions().count
        let components = readme.matches(of: /models of ([a-z]+) SwiftUI\s+components/)
        #expect(components.count == 1)
        for match in components {
            #expect(
                Self.numberWords[String(match.output.1)] == kinds, "README says \(match.output.1) components")
        }
        // "N1–N16, S1–S7, ...": each range is every id of its letter that docs/behaviours.md defines.
        let behaviours = try String(
            contentsOf: packageRoot.appendingPathComponent("docs/behaviours.md"), encoding: .utf8)
        var defined: [String: [Int]] = [:]
        for match in behaviours.matches(of: /\n\| ([NSWGR])(\d+) \|/) {
            defined[String(match.output.1), default: []].append(Int(match.output.2)!)
        }
        var ranges = 0
        for page in Self.pages {
            let text = try String(contentsOf: packageRoot.appendingPathComponent(page), encoding: .utf8)
            for match in text.matches(of: /\b([NSWGR])1–([NSWGR])(\d+)\b/)
            where match.output.1 == match.output.2 {
                ranges += 1
                let letter = String(match.output.1)
                let ids = defined[letter, default: []].sorted()
                #expect(
                    ids == Array(1...max(Int(match.output.3)!, 1)),
                    "\(page) says \(letter)1–\(letter)\(match.output.3); docs/behaviours.md defines \(ids)")
            }
        }
        #expect(ranges >= 10)
        // "`all` for the twelve" Dynamic Type sizes: what --matrix dynamic_type=all makes of one test.
        let runner = try String(
            contentsOf: packageRoot.appendingPathComponent("docs/runner.md"), encoding: .utf8)
        let sizes = runner.matches(of: /`all` for the ([a-z]+)\)/)
        #expect(sizes.count == 1)
        let list = try runScript("test('t', function() end)\n", ["--list", "--matrix", "dynamic_type=all"])
        let count = list.stdout.split(separator: "\n").count
        #expect(count > 1, "\(list.stderr)")
        for match in sizes {
            #expect(
                Self.numberWords[String(match.output.1)] == count,
                "docs/runner.md says \(match.output.1) sizes")
        }
    }
}
