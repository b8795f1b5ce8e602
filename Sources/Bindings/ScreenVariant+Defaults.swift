import StackModel
import TestResults

// A variant's settings read against the screen defaults they override (the defaults are the Lua
// API's, so this part of ``ScreenVariant`` lives here, beside them).
extension ScreenVariant {
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
}

/// A matrix key or value that makes no sense, in words.
public struct VariantError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
