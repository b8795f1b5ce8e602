import Foundation
import Testing

/// A name the API does not have is an error at the script's line that names the nearest one.
@Suite struct DidYouMeanTests {

    // MARK: 1. Runtime did-you-mean

    @Test(arguments: [
        (
            "local s = stackplay.screen {}\nlocal c = s:notification_stack { items = { \"a\" } }\nc:tapp()\n",
            "x.lua:3: unknown method 'tapp' of notification_stack (did you mean 'tap'?)"
        ),
        (
            "local s = stackplay.screen {}\nlocal w = s:wallet_card_stack { items = { \"a\" } }\nw:selction()\n",
            "x.lua:3: unknown method 'selction' of wallet_card_stack (did you mean 'selection'?)"
        ),
        (
            "local s = stackplay.screen {}\nlocal c = s:sticky_stacked_cards { items = { \"a\" } }\nc:scrol(10)\n",
            "x.lua:3: unknown method 'scrol' of sticky_stacked_cards (did you mean 'scroll'?)"
        ),
        (
            "local s = stackplay.screen {}\ns:setle()\n",
            "x.lua:2: unknown method 'setle' of screen (did you mean 'settle'?)"
        ),
        (
            "local s = stackplay.scren {}\n",
            "x.lua:1: unknown field 'scren' of stackplay (did you mean 'screen'?)"
        ),
    ])
    func unknownMethodsAndFieldsNameTheNearestAtTheScriptsLine(script: String, message: String) throws {
        let run = try runScript(script)
        #expect(run.status == 1)
        #expect(run.stdout == "x.lua\n  FAIL (whole script)\n0 passed, 1 failed\n")
        #expect(run.stderr.hasPrefix("stackplay: \(message)\n"))
        // The metamethod is not the script's frame.
        #expect(!run.stderr.contains("metamethod"))
    }

    @Test func scriptsStillSetAndReadTheirOwnFieldsOnStackplay() throws {
        let run = try runScript(
            "stackplay.mine = 3\nexpect(stackplay.mine):to_equal(3)\nexpect(stackplay.show { 1, a = 0.1 }):to_equal('{ 1, a = 0.1 }')\n"
        )
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
    }
}
