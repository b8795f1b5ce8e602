import StackModel

/// One combination of screen settings a test runs under (`--matrix`): every `stackplay.screen {}`
/// of the test takes these as defaults, and a screen's own explicit settings still win.
public struct ScreenVariant: Sendable, Equatable, Hashable {
    /// `(key, value)` in the order the matrix named its keys: `layout_direction` (`ltr`, `rtl`),
    /// `reduce_motion` (`on`/`off`, `true`/`false`), `dynamic_type` (a size), `width`, `height`.
    public var settings: [Setting]

    public struct Setting: Sendable, Equatable, Hashable {
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
            case "dynamic_type": parts.append(DynamicTypeSize(name: setting.value)?.shortName ?? setting.value)
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

    /// `defaults` with this variant's settings over them, or the first setting that makes no sense.
    public func applied(to defaults: ScreenDefaults) -> Result<ScreenDefaults, VariantError> {
        var result = defaults
        for setting in settings {
            if let problem = Self.problem(key: setting.key, value: setting.value) { return .failure(problem) }
            switch setting.key {
            case "layout_direction": result.layoutDirection = LayoutDirection(rawValue: setting.value)!
            case "reduce_motion": result.reduceMotion = Self.flag(setting.value)!
            case "dynamic_type": result.dynamicTypeSize = DynamicTypeSize(name: setting.value)!
            case "width": result.width = Double(setting.value)!
            case "height": result.height = Double(setting.value)!
            case Self.mirrorKey: result.mirror = Self.flag(setting.value)!
            default: break
            }
        }
        return .success(result)
    }

    /// What is wrong with `key=value`, or nil when a variant may set it.
    public static func problem(key: String, value: String) -> VariantError? {
        switch key {
        case "layout_direction":
            return LayoutDirection(rawValue: value) == nil
                ? VariantError("layout_direction: \(ScreenDefaults.unknownDirection(value))") : nil
        case "reduce_motion":
            return flag(value) == nil
                ? VariantError("reduce_motion: 'on', 'off', 'true' or 'false' expected, got '\(value)'") : nil
        case "dynamic_type":
            return DynamicTypeSize(name: value) == nil
                ? VariantError("dynamic_type: \(ScreenDefaults.unknownSize(value))") : nil
        case mirrorKey:
            return flag(value) == nil ? VariantError("mirror: 'on' or 'off' expected, got '\(value)'") : nil
        case "width", "height":
            guard let number = Double(value), number.isFinite, number >= 0, number <= 100_000 else {
                return VariantError("\(key): a number of points from 0 to 100000 expected, got '\(value)'")
            }
            return nil
        default:
            let near = nearestName(to: key, in: keys + ["device"])
            return VariantError(
                "unknown matrix key '\(key)'" + (near.map { " (did you mean '\($0)'?)" } ?? "")
                    + " (keys: \((keys + ["device"]).joined(separator: ", ")))")
        }
    }

    static func flag(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "on", "true", "yes", "1": true
        case "off", "false", "no", "0": false
        default: nil
        }
    }
}

/// A matrix key or value that makes no sense, in words.
public struct VariantError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
