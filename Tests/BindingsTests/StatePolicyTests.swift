import Foundation
import LuaRuntime
import TestResults
import Testing

@testable import Bindings

extension BindingsTests {
    /// Issue 42: where a test's state comes from is one seam (``StatePolicy``). The plain way,
    /// ``FreshStates``, runs a file's top level for every test; ``SnapshotStates`` runs it once and
    /// restores it; both give the same results.
    @Suite struct StatePolicyTests {
        typealias Linear = LinearSuiteTests

        /// Every result of discovering `file` and running its tests under `states`, and how many
        /// times its top level ran.
        static func results(_ file: String, _ folder: String, _ states: any StatePolicy) throws -> (
            [TestResult], runs: Int
        ) {
            let counter = Linear.Counter()
            let modules = StackplayModules.standard + [Linear.CountingModule(counter: counter)]
            let tests = ScriptTests(scripts: ScriptRunner(modules: modules), seed: 7, states: states)
            let listed = try tests.discover(file: file, root: folder).outcome.get()
            return (listed.map { tests.run($0) }, counter.runs)
        }

        static let text =
            "top_level()\nprint('top')\n" + "local n = 0\n"
            + "test('a', function() n = n + 1; print(n, math.random(100)) end)\n"
            + "test('b', function() n = n + 1; print(n, math.random(100)); expect(n):to_equal(2) end)\n"
            + "test('c', function() local s = stackplay.screen { record = true } end)\n"

        @Test func `fresh states run the top level for every test`() throws {
            let (folder, file) = try Linear.script(Self.text)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let (results, runs) = try Self.results(file, folder, FreshStates())
            #expect(runs == 1 + 3, "the listing's and each test's")
            #expect(results.map(\.status) == [.passed, .failed, .passed])
            #expect(results[0..<2].allSatisfy { $0.output.hasPrefix("top\n1\t") })
            #expect(results[2].output == "top\n")
            #expect(results[2].traces.count == 1)
            #expect(FreshStates().fallback(for: file) == nil)
        }

        @Test(
            .enabled(
                if: LuaState.snapshotsAvailable,
                "no snapshots under AddressSanitizer or STACKPLAY_FRESH_STATES"))
        func `snapshot-restored states run it once, with the fresh states' results`() throws {
            let (folder, file) = try Linear.script(Self.text)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let (fresh, _) = try Self.results(file, folder, FreshStates())
            let states = SnapshotStates()
            let (restored, runs) = try Self.results(file, folder, states)
            #expect(runs == 1)
            #expect(states.fallback(for: file) == nil)
            #expect(restored.map(\.status) == fresh.map(\.status))
            #expect(restored.map(\.output) == fresh.map(\.output))
            #expect(restored.map(\.message) == fresh.map(\.message))
            #expect(restored.map(\.traces) == fresh.map(\.traces))
            #expect(restored.map(\.seed) == fresh.map(\.seed))
        }

        /// `--matrix` runs each test in every variant in turn. With room for 8 states, a cycle of
        /// 12 dropped each state just before its next use and built one for every test.
        @Test(
            .enabled(
                if: LuaState.snapshotsAvailable,
                "no snapshots under AddressSanitizer or STACKPLAY_FRESH_STATES"))
        func `a matrix of more variants than 8 keeps a state for each`() throws {
            let (folder, file) = try Linear.script(
                "for i = 1, 5 do test('t' .. i, function() expect(i):to_be_truthy() end) end\n")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let states = SnapshotStates()
            let scripts = ScriptRunner()
            let variants = try (0..<12).map { index in
                try ScreenVariant(validating: [(key: "width", value: String(300 + 10 * index))])
            }
            for round in 0..<3 {
                for variant in variants {
                    var lua: LuaState?
                    let state = try states.prepared(
                        file: file, root: folder, variant: variant, seed: round, wholeScript: false,
                        listing: false, scripts: scripts, into: &lua)
                    #expect(state === lua)
                }
            }
            #expect(states.built == 12, "one state a variant, kept across the three rounds")
        }

        @Test func `the standard policy is fresh states exactly when snapshots are switched off`() {
            #expect((StatePolicies.standard() is FreshStates) == (StatePolicies.offReason != nil))
            #expect((StatePolicies.offReason != nil) == (LuaState.freshStatesReason != nil))
        }
    }
}
