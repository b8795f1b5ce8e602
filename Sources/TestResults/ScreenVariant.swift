import StackModel

/// One combination of screen settings a test runs under (`--matrix`): every `stackplay.screen {}`
/// of the test takes these as defaults, and a screen's own explicit settings still win.
public struct ScreenVariant: Sendable, Equatable, Hashable, Codable {
    /// `(key, value)` in the order the matrix named its keys: `layout_direction` (`ltr`, `rtl`),
    /// `reduce_motion` (`on`/`off`, `true`/`false`), `dynamic_type` (a size), `width`, `height`.
    public var settings: [Setting]

    public struct Setting: Sendable, Equatable, Hashable, Codable {
        public var key: String
        public var value: String
        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    public init(_ settings: [Setting] = []) { self.settings = settings }

    /// The keys a variant may set.
    public static let keys = ["layout_direction", "reduce_motion", "dynamic_type", "width", "height"]

    /// The setting `--mirror` adds: `mirror=on` runs the test mirrored and compares it with its
    /// unmirrored twin, which runs under `mirror=off` (recorded, never reported).
    public static let mirrorKey = "mirror"

    /// Whether this variant runs mirrored (`name [mirrored]`).
    public var isMirrored: Bool { settings.contains { $0.key == Self.mirrorKey && $0.value == "on" } }

    /// Whether this variant is half of a mirror comparison: every screen is recorded.
    public var checksMirror: Bool { settings.contains { $0.key == Self.mirrorKey } }

    /// This variant mirrored: `[rtl]` → `[rtl, mirrored]`.
    public var mirrored: ScreenVariant {
        with(mirror: "on")
    }

    /// The unmirrored twin a mirrored variant is compared with: the same settings, `mirror=off`.
    public var twin: ScreenVariant {
        with(mirror: "off")
    }

    private func with(mirror value: String) -> ScreenVariant {
        let others = settings.filter { $0.key != Self.mirrorKey }
        return ScreenVariant(others + [Setting(key: Self.mirrorKey, value: value)])
    }

    /// How reports name the variant: `rtl, AX5, reduce_motion=on, 320 × 568, mirrored`; "" for none.
    public var label: String {
        var parts: [String] = []
        var width: String?
        var height: String?
        var mirrored = false
        for setting in settings {
            switch setting.key {
            case "layout_direction": parts.append(setting.value)
            case "dynamic_type":
                parts.append(DynamicTypeSize(name: setting.value)?.shortName ?? setting.value)
            case "width": width = setting.value
            case "height": height = setting.value
            case Self.mirrorKey: if setting.value == "on" { mirrored = true }
            default: parts.append("\(setting.key)=\(setting.value)")
            }
        }
        if width != nil || height != nil {
            parts.append("\(width ?? "-") × \(height ?? "-")")
        }
        if mirrored { parts.append("mirrored") }
        return parts.joined(separator: ", ")
    }

    package static func flag(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "on", "true", "yes", "1": true
        case "off", "false", "no", "0": false
        default: nil
        }
    }
}
