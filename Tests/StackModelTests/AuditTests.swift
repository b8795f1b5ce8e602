import Testing

@testable import StackModel

/// A control of the tests' own: one element that a tap acts on, with neither the Button trait nor,
/// while it is the selection, the Selected trait. It keeps the audit's defaults honest for a kind
/// that declares only what `Component` asks.
private final class Knob: Component {
    let kind = ComponentKind("knob")
    let name = "knob"
    let frame = Rect(x: 10, y: 10, width: 60, height: 60)

    func snapshot(in settings: ScreenSettings) -> ComponentSnapshot {
        ComponentSnapshot(
            kind: kind, name: name, frame: frame, cards: cardSnapshots(in: settings),
            state: [("selection", .string("k"))])
    }
    func cardSnapshots(in settings: ScreenSettings) -> [CardSnapshot] {
        [CardSnapshot(id: "k", frame: frame, scale: 1, opacity: 1, z: 1, isVisible: true, isHittable: true)]
    }
    var cardCount: Int { 1 }
    var cardTextBytes: Int { 0 }
    func hitTest(_ point: Point, in settings: ScreenSettings) -> ComponentTarget? {
        frame.contains(point) ? .card("k") : nil
    }
    func point(of target: ComponentTarget, in settings: ScreenSettings) throws -> Point { frame.center }
    func touchBegan(_ touch: Touch, on target: ComponentTarget, in settings: ScreenSettings) {}
    func touchMoved(_ touch: Touch, in settings: ScreenSettings) {}
    func touchEnded(_ touch: Touch, in settings: ScreenSettings) {}
    func accessibilityElements(in settings: ScreenSettings) -> [AccessibilityElement] {
        [AccessibilityElement(id: "card:k", label: "Volume", frame: frame)]
    }
    func touchTargets(in settings: ScreenSettings) -> [TouchTarget] { [TouchTarget("card:k")] }
    func performAccessibilityAction(_ action: String, on element: String, in settings: ScreenSettings) throws
        -> Bool
    { false }
    var animationEndTime: Double? { nil }
}

private func cards(_ ids: [String], height: Double = 70) -> [CardSpec] {
    ids.map { CardSpec(id: $0, height: height) }
}

private func screen(_ dynamicType: DynamicTypeSize = .large, _ components: [any Component]) throws -> Screen {
    let screen = try Screen(settings: ScreenSettings(dynamicTypeSize: dynamicType))
    for component in components { try screen.add(component) }
    return screen
}

@Suite("Accessibility audit")
struct AuditTests {
    @Test("a clean screen passes: a closed pile, an open pile, a wallet at rest, sticky cards")
    func cleanScreenPasses() throws {
        let notes = try NotificationStack(cards: cards(["messages", "calendar", "mail"]))
        let open = try NotificationStack(
            name: "open", cards: cards(["maya", "design"]), isExpanded: true, isDismissible: true,
            origin: Point(x: 0, y: 300))
        #expect(try screen(.large, [notes]).audit() == [])
        #expect(try screen(.large, [open]).audit() == [])
        let wallet = try WalletCardStack(cards: cards(["everyday", "savings", "travel", "transit"]))
        #expect(try screen(.large, [wallet]).audit() == [])
        #expect(try screen(.accessibility5, [wallet]).audit() == [])
        let sticky = try StickyStackedCards(cards: cards(["Design", "Build", "Test"], height: 348))
        #expect(try screen(.large, [sticky]).audit() == [])
    }

    @Test("hit_region: a card too short to hit is too_small, with its frame")
    func cardTooShortToHit() throws {
        let wallet = try WalletCardStack(
            cards: cards(["a", "b"]), cardHeight: 30, origin: Point(x: 20, y: 100))
        let issues = try screen(.large, [wallet]).audit(AuditOptions(types: [.hitRegion]))
        #expect(issues.map(\.element) == ["card:a", "card:b"])
        #expect(
            issues.allSatisfy { $0.type == .hitRegion && $0.rule == "too_small" && $0.component == "wallet" })
        #expect(issues.first?.frame == Rect(x: 20, y: 100, width: 350, height: 30))
        #expect(issues.first?.compact == "350 × 30 pt on screen, under 44 × 44 pt")
    }

    @Test("hit_region: a card the next one covers but for 20 pt is covered")
    func coveredCard() throws {
        // step = min(64, (260 − 200) / 3) = 20: every card but the last shows a 20 pt edge.
        let wallet = try WalletCardStack(cards: cards(["a", "b", "c", "d"]), height: 260)
        let issues = try screen(.large, [wallet]).audit(AuditOptions(types: [.hitRegion]))
        #expect(issues.map(\.element) == ["card:a", "card:b", "card:c"])
        #expect(issues.allSatisfy { $0.rule == "covered" })
        #expect(issues[1].frame == Rect(x: 0, y: 20, width: 350, height: 200))
        #expect(issues[1].compact == "350 × 20 pt of it takes touches, under 44 × 44 pt")
    }

    @Test("sufficient_description: an unlabeled item, a raw id, a repeated label")
    func descriptions() throws {
        let stack = try NotificationStack(
            cards: [
                CardSpec(id: "blank", height: 70, label: ""), CardSpec(id: "note_7", height: 70),
                CardSpec(id: "a", height: 70, label: "Mail"), CardSpec(id: "b", height: 70, label: "Mail"),
            ], isExpanded: true, isDismissible: true)
        let issues = try screen(.large, [stack]).audit(AuditOptions(types: [.sufficientDescription]))
        #expect(issues.map(\.rule) == ["empty_label", "raw_id_label", "duplicate_label"])
        #expect(issues.map(\.element) == ["card:blank", "card:note_7", "card:b"])
        #expect(issues[0].frame == stack.cardSnapshots(in: ScreenSettings()).first?.frame)
        #expect(Auditor.readsAsIdentifier("card_7") && Auditor.readsAsIdentifier("42"))
        #expect(Auditor.readsAsIdentifier("walletCard") && !Auditor.readsAsIdentifier("Design review"))
    }

    /// The definitions, a character at a time, that the ASCII fast paths must agree with.
    static func identifierByCharacters(_ text: String) -> Bool {
        var previousLower = false
        for character in text {
            if character.isNumber || "_-.:/#@".contains(character) { return true }
            if character.isUppercase, previousLower { return true }
            previousLower = character.isLowercase
        }
        return false
    }

    static func trimmedByCharacters(_ text: String, _ set: String) -> String {
        var characters = Array(text)
        while let first = characters.first, set.contains(first) { characters.removeFirst() }
        while let last = characters.last, set.contains(last) { characters.removeLast() }
        return String(characters)
    }

    @Test("sufficient_description: labels read a byte at a time as they read a character at a time")
    func labelFastPathsAgree() {
        let texts = [
            "", "a", "A", "aB", "Ab", "AB", "ab", "mail", "Mail", "walletCard", "card_7", "x-y", "a.b", "a:b",
            "a/b", "#tag", "me@home", "42", "Design review", " Mail ", "\tMail\n", "\n", " ", "  \t\n  ",
            "\r\nMail\r\n", "Mail\r\n", " \u{301}Mail", "Mail \u{301}", "caf\u{E9}", "\u{E9}T", "aÉ",
            "a\u{663}",
            "Straße", "ǅx", "\u{1F600}", "x\u{1F600}Y", "\u{0}", "\u{7F}A", "zZ",
        ]
        var random = SplitMix(seed: 21)
        let alphabet = Array("aZ0_-.:/#@ \t\n\r\u{301}é")
        let generated = (0..<500).map { _ in
            String(
                (0..<Int(random.next() % 7)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))]
                })
        }
        for text in texts + generated {
            #expect(
                Auditor.readsAsIdentifier(text) == Self.identifierByCharacters(text),
                "\(Array(text.unicodeScalars))")
            #expect(
                text.trimmingCharacters(inSet: " \t\n") == Self.trimmedByCharacters(text, " \t\n"),
                "\(Array(text.unicodeScalars))")
        }
    }

    @Test("dynamic_type: a wallet overflowing at AX5 pushes its last cards off the screen")
    func walletOverflowsAtAX5() throws {
        // At Large the tops step 64 (the last ends at 520); at AX5 they step 64 × 53 / 17.
        let wallet = try WalletCardStack(cards: cards(["a", "b", "c", "d", "e", "f"]), height: 1200)
        #expect(try screen(.large, [wallet]).audit(AuditOptions(types: [.dynamicType])) == [])
        let issues = try screen(.accessibility5, [wallet]).audit(AuditOptions(types: [.dynamicType]))
        #expect(issues.map(\.element) == ["card:e", "card:f"])
        #expect(issues.allSatisfy { $0.type == .dynamicType && $0.rule == "pushed_off_screen" })
        #expect(issues[1].frame == Rect(x: 0, y: 5 * 64 * 53 / 17, width: 350, height: 200))
        #expect(issues[1].compact == "at AX5 it is pushed off the screen (it fits at Large)")
    }

    @Test("element_detection: the pile's cards take taps while VoiceOver hides them")
    func hiddenPile() throws {
        let wallet = try WalletCardStack(cards: cards(["a", "b", "c"]), selection: "b")
        let issues = try screen(.large, [wallet]).audit(AuditOptions(types: [.elementDetection]))
        #expect(issues.map(\.element) == ["card:a", "card:c"])
        #expect(issues.allSatisfy { $0.rule == "hidden_hittable" })
        let allowed = AuditOptions(
            types: [.elementDetection],
            allow: [AuditAllowance(type: .elementDetection, element: "card:*", kind: "wallet_card_stack")])
        #expect(try screen(.large, [wallet]).audit(allowed) == [])
    }

    @Test("element_detection: a control whose activation point is off screen")
    func activationOffScreen() throws {
        let wallet = try WalletCardStack(cards: cards(["a", "b"]), origin: Point(x: 0, y: 800))
        let issues = try screen(.large, [wallet]).audit(AuditOptions(types: [.elementDetection]))
        #expect(issues.map(\.rule) == ["activation_off_screen"])
        #expect(issues.map(\.element) == ["card:b"])
    }

    @Test("action: Clear on a pile whose owner set no onDismiss does nothing")
    func clearDoesNothing() throws {
        let stack = try NotificationStack(cards: cards(["maya", "design"]), isExpanded: true)
        let issues = try screen(.large, [stack]).audit(AuditOptions(types: [.action]))
        #expect(issues.map(\.element) == ["card:maya", "card:design"])
        #expect(issues.first?.compact == "its action 'Clear' does nothing now")
    }

    @Test("trait: a control without the Button trait, the selection without Selected")
    func traits() throws {
        let issues = try screen(.large, [Knob()]).audit()
        #expect(issues.map(\.type) == [.trait, .trait])
        #expect(issues.map(\.rule) == ["not_a_button", "not_selected"])
        #expect(issues.first?.frame == Rect(x: 10, y: 10, width: 60, height: 60))
    }

    @Test("an audit reads only: the screen is the same after it")
    func auditReadsOnly() throws {
        let wallet = try WalletCardStack(cards: cards(["a", "b", "c"]))
        let s = try screen(.accessibility3, [wallet])
        try s.tap(at: Point(x: 100, y: 80))
        try s.advance(by: 0.1)
        let before = s.snapshot()
        _ = s.audit()
        #expect(s.snapshot() == before)
        #expect(s.now == 0.1)
    }
}
