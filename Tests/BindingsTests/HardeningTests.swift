import Foundation
import LuaRuntime
import StackModel
import Testing
import Traces

@testable import Bindings

#if canImport(Glibc)
    import Glibc
#endif

extension BindingsTests {
    /// Issue 10, parts 2 and 4 inside the process: Swift's memory charged to the budget, the
    /// session's bounded hold on screens, bounded failures, checked conversions.
    @Suite struct Hardening {
        /// Bytes `make` leaves resident, per `count` items (large counts: the heap's free pages
        /// from earlier tests are small beside them).
        static func bytesEach(_ count: Int, _ make: () throws -> AnyObject) rethrows -> Int {
            let before = residentBytes()
            let made = try make()
            let after = residentBytes()
            withExtendedLifetime(made) {}
            return (after - before) / count
        }

        static func items(_ count: Int) -> [CardSpec] {
            (0..<count).map { CardSpec(id: "card-\($0)", height: 70) }
        }

        @Test func memoryEstimatesCoverResidentBytes() throws {
            guard !addressSanitizerIsActive else { return }  // ASan's allocator keeps its own books
            let perScreen = try Self.bytesEach(20_000) {
                try (0..<20_000).map { _ in try Screen() } as NSArray
            }
            let cards = Self.items(200_000)
            // Each measured on fresh pages: RSS does not shrink, so a later one cannot reuse them.
            let perStickyCard = try Self.bytesEach(cards.count) { try StickyStackedCards(cards: cards) }
            let perNotificationCard = try Self.bytesEach(cards.count) {
                try NotificationStack(cards: cards, isExpanded: true)
            }
            let perWalletCard = try Self.bytesEach(cards.count) { try WalletCardStack(cards: cards) }
            // The estimate covers what a card really costs, and is not wildly above it.
            for measured in [perNotificationCard, perWalletCard, perStickyCard] {
                #expect(measured <= MemoryEstimate.cardBytes, "measured \(measured) bytes a card")
            }
            #expect(perNotificationCard * 4 >= MemoryEstimate.cardBytes, "measured \(perNotificationCard)")
            #expect(perScreen <= MemoryEstimate.screenBytes, "measured \(perScreen) bytes a screen")
        }

        @Test func swiftMemoryIsChargedToTheBudget() throws {
            let lua = try makeState(budget: LuaBudget(cpuSeconds: 10, memoryMiB: 256))
            let before = lua.memoryCharged
            try lua.run(
                """
                local items = {} for i = 1, 10000 do items[i] = "c" .. i end
                kept = stackplay.screen {}:notification_stack { items = items }
                """)
            #expect(lua.memoryCharged - before >= 10_000 * MemoryEstimate.cardBytes)
        }

        @Test func screensMadeInALoopAreNotAllKept() throws {
            let lua = try makeState()
            try lua.run(
                """
                for i = 1, 250 do
                  local screen = stackplay.screen {}
                  local stack = screen:notification_stack { items = { "a", "b", "c", "d" } }
                  stack:tap(); screen:settle()
                  stack:drag("b", { x = 120 }); screen:settle()
                end
                collectgarbage()
                stackplay.screen {}  -- a new object: the state measures Swift's memory again
                """)
            // The first 20 screens (kept for a failure report) and the last one, not 250. (250, not
            // more: under AddressSanitizer 2,000 rounds took 9 s of the 10 s CPU budget.)
            let screen =
                MemoryEstimate.screenBytes + MemoryEstimate.componentBytes + 4 * MemoryEstimate.cardBytes
            #expect(lua.memoryCharged <= 21 * screen)
            #expect(lua.memoryCharged >= 20 * MemoryEstimate.screenBytes)
        }

        @Test func memoryStopNamesTheLineThatMadeTheCards() throws {
            let lua = try makeState(budget: LuaBudget(cpuSeconds: 10, memoryMiB: 16))
            let code = """
                local items = {} for i = 1, 100000 do items[i] = "c" .. i end
                local screen = stackplay.screen {}
                local ok = pcall(screen.notification_stack, screen, { items = items })
                while true do end
                """
            let failure = try #require(runFailure(of: code, in: lua))
            #expect(failure.kind == .memoryBudget)
            #expect(failure.message == "test.lua:3: stopped: the script used its 16 MiB of memory")
        }

        @Test func sessionKeepsTheFirstTwentyScreensAndForgetsTheRest() throws {
            let session = ScriptSession()
            var alive: [Screen] = []
            for index in 0..<1000 {
                let screen = try Screen()
                session.track(screen)
                if index < 3 { alive.append(screen) }
            }
            #expect(session.screens.count == ScriptSession.dumpedScreens)
            #expect(session.screenCount == 1000)
            #expect(session.dump().hasSuffix("\n... and 980 more screens"))
            // Only the kept screens are charged: the other 980 are gone.
            #expect(session.footprint() == ScriptSession.dumpedScreens * MemoryEstimate.screenBytes)
            withExtendedLifetime(alive) {}
        }

        @Test func recordersOfGoneScreensStayCharged() throws {
            let session = ScriptSession(recordsTraces: true)
            for _ in 0..<30 {
                let screen = try Screen()
                session.track(screen)
                try screen.advance(by: 1)
            }
            #expect(session.recorders.count == 30)
            let recorded = 30 * MemoryEstimate.eventBytes
            #expect(session.footprint() == 20 * MemoryEstimate.screenBytes + recorded)
        }

        @Test func failureMessagesAndTracebacksAreBounded() {
            let failure = LuaFailure(
                kind: .error, message: String(repeating: "é", count: 100_000),
                traceback: (1...1000).map { "line \($0)" }.joined(separator: "\n"))
            #expect(failure.message.utf8.count <= LuaFailure.maximumMessageBytes + 40)
            #expect(failure.message.hasSuffix("\n... (134464 more bytes)"))
            let lines = failure.traceback.split(separator: "\n")
            #expect(lines.count == LuaFailure.maximumTracebackLines + 1)
            #expect(lines.last == "... (800 more)")
        }

        @Test(arguments: [
            ("local t = {} for i = 1, 60 do t = { t, t, x = t } end return t", "table"),
            ("local t = {} for i = 1, 99 do t = { t } end return t", "table"),
        ])
        func sharedAndDeepTablesConvertAtOnce(code: String, type: String) throws {
            let lua = try makeState()
            let clock = ContinuousClock()
            let start = clock.now
            let results = try lua.run(code)
            #expect(clock.now - start < .seconds(2))
            #expect(results.first?.typeName == type)
        }

        @Test(arguments: [
            (
                "local t = {} t[1] = t return t",
                "the chunk returned field '[1]': a table that holds itself (a cycle)"
            ),
            (
                "local t = {} for i = 1, 101 do t = { t } end return t",
                "the chunk returned field '[1][1][1][1][1]...': tables nested more than 100 levels deep"
            ),
        ])
        func cyclicAndTooDeepResultsAreErrors(code: String, message: String) throws {
            let lua = try makeState()
            let failure = try #require(runFailure(of: code, in: lua))
            #expect(failure.kind == .error)
            #expect(failure.message == message)
        }

        @Test(arguments: [
            (2.0e300, 0), (-1.0, 0), (0.0000001, 1024), (1e-300, 1024), (256.0, 256 * 1_048_576),
            (.nan, 0), (.infinity, 1_048_576 * 1_048_576), (1e300, 1_048_576 * 1_048_576),
        ])
        func memoryBudgetsConvertWithoutTrapping(mib: Double, bytes: Int) {
            // 2e300 is in no valid range, but the conversion clamps rather than traps.
            let expected = mib == 2.0e300 ? 1_048_576 * 1_048_576 : bytes
            #expect(LuaBudget(cpuSeconds: 1, memoryMiB: mib).memoryBytes == expected)
        }

        @Test(arguments: [0.0000001, 1e300, 0, -1, .nan, .infinity, 1e-300])
        func memoryBudgetsOutOfRangeAreNotValid(mib: Double) {
            #expect(!LuaBudget.isValid(memoryMiB: mib))
        }
    }
}
