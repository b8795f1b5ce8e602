import Exploration
import Foundation
import StackModel
import Testing

@testable import Bindings

/// `stackplay explore`'s `mirror` invariant catches a planted asymmetry: `FixedCard` places its
/// card by absolute x in both directions, so on the mirrored screen its frame, mirrored back, is
/// not where the unmirrored run has it. The failure names the step, the card and the field, and
/// shrinks to one step; a notification stack beside it is its own mirror image.
extension BindingsTests {
    @Suite struct ExploreMirror {
        static let script = """
            explore("a fixed card by absolute x", {
              setup = function()
                local screen = stackplay.screen {}
                screen:fixed_card { label = "hello", x = 20, y = 40, width = 100, height = 120 }
                return screen
              end,
            })
            explore("a notification stack", {
              setup = function()
                local screen = stackplay.screen {}
                screen:notification_stack { items = { "a", "b", "c" }, x = 16, width = 358, dismissible = true }
                return screen
              end,
            })
            """

        func outcomes(runs: Int) throws -> [ExploreOutcome] {
            let folder = try BindingsTests.FourthKind.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("explore.lua")
            try Self.script.write(to: file, atomically: true, encoding: .utf8)
            let explorations = try LuaExplorationFile(
                file: file.path, root: folder.path, runner: BindingsTests.FourthKind.runner().scripts, seed: 3
            )
            return (0..<explorations.explorations.count).map { index in
                let explorer = explorations.explorer(
                    index, budget: ExploreBudget(seed: 3, runs: runs, steps: 40, replayEvery: 1))
                explorer.generator.kinds = BindingsTests.FourthKind.kinds.traces
                return explorer.explore()
            }
        }

        @Test func `an absolute x fails 'mirror', naming the step, component and field, shrunk to one step`()
            throws
        {
            let outcomes = try outcomes(runs: 10)
            guard case .failed(let example, _, _, _) = outcomes[0] else {
                Issue.record("\(outcomes[0])")
                return
            }
            #expect(example.failure.invariant == "mirror")
            #expect(example.shrunk.count == 1, "\(example.shrunk)")
            let message = example.failure.message
            #expect(
                message.hasPrefix("the mirrored run is not the mirror image after step 1 ("), "\(message)")
            #expect(message.contains("component 'card', field 'x' differs"), "\(message)")
            #expect(message.contains("unmirrored: 20\n"), "\(message)")
            #expect(message.contains("mirrored: 270 "), "\(message)")
            guard case .passed = outcomes[1] else {
                Issue.record("\(outcomes[1])")
                return
            }
            // The same seed, the same failure.
            guard case .failed(let again, _, _, _) = try self.outcomes(runs: 10)[0] else { return }
            #expect(again.shrunk == example.shrunk && again.failure == example.failure)
        }
    }
}
