import StackModel

/// One combination of screen settings a test runs under (`--matrix`, `--mirror`): every
/// `stackplay.screen {}` of the test takes these as defaults, and a screen's own explicit settings
/// still win. Typed (``ScreenSettingsVariant``): a setting is parsed once, where the matrix is
/// read, and everything after reads values, never strings.
public struct ScreenVariant: Sendable, Equatable, Hashable {
    /// The typed settings.
    public private(set) var screen: ScreenSettingsVariant

    /// No settings: the screens' own defaults.
    public init() { screen = ScreenSettingsVariant() }

    /// The variant of `screen`.
    public init(_ screen: ScreenSettingsVariant) { self.screen = screen }

    /// `key=value` settings in order, each checked (the message names the key and what it takes).
    public init(validating settings: [(key: String, value: String)]) throws(ScreenSettingsVariant.Problem) {
        screen = try ScreenSettingsVariant(settings)
    }

    /// The keys a matrix may set.
    public static let keys = ScreenSettingsVariant.Key.allCases.map(\.rawValue).filter { $0 != "device" }

    /// The setting `--mirror` adds: `mirror=on` runs the test mirrored and compares it with its
    /// unmirrored twin, which runs under `mirror=off` (recorded, never reported).
    public static let mirrorKey = ScreenSettingsVariant.mirrorKey

    /// Whether it sets nothing.
    public var isEmpty: Bool { settings.isEmpty }

    /// Whether this variant runs mirrored (`name [mirrored]`).
    public var isMirrored: Bool { screen.mirrored == true }

    /// Whether this variant is half of a mirror comparison: every screen is recorded.
    public var checksMirror: Bool { screen.mirrored != nil }

    /// This variant mirrored: `[rtl]` → `[rtl, mirrored]`.
    public var mirrored: ScreenVariant { with(mirrored: true) }

    /// The unmirrored twin a mirrored variant is compared with: the same settings, `mirror=off`.
    public var twin: ScreenVariant { with(mirrored: false) }

    private func with(mirrored: Bool) -> ScreenVariant {
        var copy = self
        copy.screen.mirrored = mirrored
        return copy
    }

    /// How reports name the variant: `rtl, AX5, reduce_motion=on, 320 × 568, mirrored`; "" for none.
    public var label: String { screen.label }

    /// The settings as `key=value` text, in the order given (a device by its name), the
    /// mirror last: what the worker's wire and `--json` carry, read back by ``init(validating:)``.
    public var settings: [(key: String, value: String)] {
        var out: [(key: String, value: String)] = []
        for key in screen.order {
            switch key {
            case .layoutDirection: screen.layoutDirection.map { out.append((key.rawValue, $0.rawValue)) }
            case .reduceMotion: screen.reduceMotion.map { out.append((key.rawValue, $0.text)) }
            case .dynamicType: screen.dynamicType.map { out.append((key.rawValue, $0.shortName)) }
            case .width: screen.width.map { out.append((key.rawValue, $0.text)) }
            case .height: screen.height.map { out.append((key.rawValue, $0.text)) }
            case .device: screen.device.map { out.append((key.rawValue, $0)) }
            }
        }
        if let mirrored = screen.mirrored { out.append((Self.mirrorKey, mirrored ? "on" : "off")) }
        return out
    }
}

extension ScreenVariant: Codable {
    private struct Setting: Codable {
        var key: String
        var value: String
    }
    private enum CodingKeys: String, CodingKey { case settings }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(settings.map { Setting(key: $0.key, value: $0.value) }, forKey: .settings)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let settings = try container.decode([Setting].self, forKey: .settings)
        do {
            self = try ScreenVariant(validating: settings.map { ($0.key, $0.value) })
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: .settings, in: container, debugDescription: error.message)
        }
    }
}
