import Foundation
import Testing

/// The scenarios under scripts/ that document a behaviour pass.
@Suite struct ScenarioTests {

    // MARK: 6. Wallet buttons

    @Test func walletButtonScenarioPasses() throws {
        let run = try stackplay("scripts/wallet_buttons.lua")
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(
            run.stdout.contains("  ok   W4 a 150 pt sideways drag that lifts inside the card selects it\n"))
        #expect(run.stdout.hasSuffix("4 passed, 0 failed\n"))
    }
}
