import StackModel
import TestResults

// A variant's settings over the screen defaults they override (the defaults are the Lua API's, so
// this part of ``ScreenVariant`` lives here, beside them).
extension ScreenVariant {
    /// `defaults` with this variant's settings over them: typed values, read as they are.
    public func applied(to defaults: ScreenDefaults) -> ScreenDefaults {
        var result = defaults
        if let direction = screen.layoutDirection { result.layoutDirection = direction }
        if let reduceMotion = screen.reduceMotion { result.reduceMotion = reduceMotion.value }
        if let size = screen.dynamicType { result.dynamicTypeSize = size }
        if let width = screen.width { result.width = width.value }
        if let height = screen.height { result.height = height.value }
        if let mirrored = screen.mirrored { result.mirror = mirrored }
        return result
    }
}

/// A matrix key or value that makes no sense, in words.
public struct VariantError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
