import StackModel

/// The screens `mutate --suggest` searches from (docs/mutate.md): for each component, the seed
/// demo's placement first, then what a person tries next when a mutant survives it: the stack
/// open, one or two cards, a component whose owner set no `onDismiss`, right to left, Reduce
/// Motion, the largest Dynamic Type, another size. A run draws settings, owners' changes and
/// VoiceOver actions as it goes too; a world is where it starts.
struct SuggestWorld {
    /// How the report and the written test name it: "four notifications, closed".
    let title: String
    /// Lua that makes `screen` and the component as `variable` (two spaces in).
    let lua: String
    /// The component's variable: the name `stackplay codegen` gives it too.
    let variable: String
    /// The exploration's weights (`{ touch = 4 }`), nil for the explorer's own.
    var weights: String?

    /// The worlds of the mutant's component, the first one the seed demo's; a mutant of what the
    /// components share (G) goes on to the other components' worlds.
    static func worlds(for mutant: Mutant) -> [SuggestWorld] {
        let own = component(of: mutant)
        var out = worlds(of: own)
        if mutant.spec.hasPrefix("G") {
            for other in [ComponentKind.notificationStack, .walletCardStack, .stickyStackedCards]
            where other != own {
                out += worlds(of: other)
            }
        }
        return out
    }

    static func component(of mutant: Mutant) -> ComponentKind {
        if mutant.file.hasPrefix("Wallet") || mutant.spec.hasPrefix("W") { return .walletCardStack }
        if mutant.file.hasPrefix("Sticky") || mutant.spec.hasPrefix("S") { return .stickyStackedCards }
        return .notificationStack
    }

    static func worlds(of kind: ComponentKind) -> [SuggestWorld] {
        switch kind {
        case .walletCardStack: wallets
        case .stickyStackedCards: stickies
        default: notifications
        }
    }

    /// The component a world makes, and its variable (the name `stackplay codegen` gives it).
    enum Factory: String {
        case notification = "notification_stack"
        case wallet = "wallet_card_stack"
        case sticky = "sticky_stacked_cards"

        var variable: String {
            switch self {
            case .notification: "stack"
            case .wallet: "wallet"
            case .sticky: "cards"
            }
        }
    }

    /// A world: `local screen = stackplay.screen { ... }` (390 × 844 and `screen`'s options) and
    /// the component with `options`.
    private static func world(
        _ factory: Factory, _ title: String, screen: String = "", _ options: String, weights: String? = nil
    ) -> SuggestWorld {
        SuggestWorld(
            title: title,
            lua: "  local screen = stackplay.screen { width = 390, height = 844\(screen) }\n"
                + "  local \(factory.variable) = screen:\(factory.rawValue) {\n    \(options)\n  }\n",
            variable: factory.variable, weights: weights)
    }

    static let fourNotifications =
        "items = { \"messages\", \"calendar\", \"mail\", \"fitness\" }, card_height = 70"
    static let notificationPlace = "x = 16, y = 180, width = 358"

    static let notifications: [SuggestWorld] = [
        world(
            .notification,
            "four notifications, closed", "\(fourNotifications), dismissible = true, \(notificationPlace)"),
        world(
            .notification,
            "four notifications, open",
            "\(fourNotifications), dismissible = true, expanded = true, \(notificationPlace)"
        ),
        world(
            .notification,
            "four notifications whose owner set no onDismiss",
            "\(fourNotifications), expanded = true, \(notificationPlace)",
            weights: "{ drag = 4, accessibility = 4, touch = 3 }"),
        world(
            .notification,
            "two notifications",
            "items = { \"messages\", \"calendar\" }, card_height = 70, dismissible = true, "
                + notificationPlace),
        world(
            .notification,
            "one notification",
            "items = { \"messages\" }, card_height = 70, dismissible = true, \(notificationPlace)"),
        world(
            .notification,
            "four notifications, right to left", screen: ", layout_direction = \"rtl\"",
            "\(fourNotifications), dismissible = true, expanded = true, \(notificationPlace)"),
        world(
            .notification,
            "four notifications under Reduce Motion", screen: ", reduce_motion = true",
            "\(fourNotifications), dismissible = true, \(notificationPlace)"),
        world(
            .notification,
            "four notifications at Dynamic Type AX5", screen: ", dynamic_type = \"AX5\"",
            "\(fourNotifications), dismissible = true, expanded = true, \(notificationPlace)"),
        world(
            .notification,
            "four notifications filling the screen's width",
            "\(fourNotifications), dismissible = true, y = 180",
            weights: "{ settings = 4 }"),
    ]

    static let fourWallets = "items = { \"everyday\", \"savings\", \"travel\", \"transit\" }"
    static let walletPlace = "x = 20, y = 100, width = 350, height = 600"

    static let wallets: [SuggestWorld] = [
        world(.wallet, "four wallet cards", "\(fourWallets), \(walletPlace)"),
        world(
            .wallet, "four wallet cards, one selected",
            "\(fourWallets), selection = \"savings\", \(walletPlace)"),
        world(.wallet, "one wallet card", "items = { \"everyday\" }, \(walletPlace)"),
        world(
            .wallet,
            "four wallet cards in a short stack", "\(fourWallets), x = 20, y = 100, width = 350, height = 300"
        ),
        world(
            .wallet,
            "four wallet cards, right to left", screen: ", layout_direction = \"rtl\"",
            "\(fourWallets), \(walletPlace)"),
        world(
            .wallet,
            "four wallet cards under Reduce Motion", screen: ", reduce_motion = true",
            "\(fourWallets), \(walletPlace)"),
        world(
            .wallet,
            "four wallet cards at Dynamic Type AX5", screen: ", dynamic_type = \"AX5\"",
            "\(fourWallets), \(walletPlace)"),
        world(
            .wallet,
            "four wallet cards filling the screen", "\(fourWallets), y = 100", weights: "{ settings = 4 }"),
    ]

    /// Seven cards whose labels are not their ids (VoiceOver reads the label: G6).
    static let sevenStickies =
        "items = { "
        + (1...7).map { "{ id = \"c\($0)\", label = \"Card \($0)\" }" }.joined(separator: ", ")
        + " }, card_height = 100"
    static let stickyPlace = "x = 20, width = 350, height = 300"

    static let stickies: [SuggestWorld] = [
        world(.sticky, "seven sticky cards in a 300 pt scroll view", "\(sevenStickies), \(stickyPlace)"),
        world(
            .sticky,
            "seven sticky cards scrolled 400 pt", "\(sevenStickies), \(stickyPlace), scroll_offset = 400"),
        world(
            .sticky, "two sticky cards",
            "items = { { id = \"c1\", label = \"Card 1\" }, { id = \"c2\", label = \"Card 2\" } }, "
                + "card_height = 100, \(stickyPlace)"),
        world(
            .sticky,
            "seven sticky cards, right to left", screen: ", layout_direction = \"rtl\"",
            "\(sevenStickies), \(stickyPlace)"),
        world(
            .sticky,
            "seven sticky cards under Reduce Motion", screen: ", reduce_motion = true",
            "\(sevenStickies), \(stickyPlace), scroll_offset = 400"),
        world(
            .sticky,
            "seven sticky cards at Dynamic Type AX5", screen: ", dynamic_type = \"AX5\"",
            "\(sevenStickies), \(stickyPlace)"),
    ]
}
