/// One combination of screen settings a test runs under (`--matrix KEY=V1,V2`, `--mirror`), as
/// typed values: what `Bindings.ScreenVariant` holds as `(key, value)` strings. Not wired in yet:
/// it reads the same `KEY=VALUE` settings with the same messages and gives the same labels.
public struct ScreenSettingsVariant: Hashable, Sendable {
    /// The matrix keys, by their names in `--matrix`.
    public enum Key: String, Hashable, Sendable, CaseIterable {
        case layoutDirection = "layout_direction"
        case reduceMotion = "reduce_motion"
        case dynamicType = "dynamic_type"
        case width
        case height
        /// A named size: sets `width` and `height`.
        case device
    }

    /// A value with the text it was given as: a label repeats what was written
    /// (`reduce_motion=yes`, `width=320.0`).
    public struct Given<Value: Hashable & Sendable>: Hashable, Sendable {
        public var value: Value
        public var text: String

        public init(_ value: Value, text: String) {
            self.value = value
            self.text = text
        }
    }

    /// A named screen size for `device=NAME`: points, portrait.
    public struct Device: Hashable, Sendable {
        public var name: String
        public var size: Size

        /// The devices `device=` knows.
        public static let all = [
            Device(name: "iphone-se", size: Size(width: 375, height: 667)),
            Device(name: "iphone-15", size: Size(width: 393, height: 852)),
            Device(name: "iphone-15-pro-max", size: Size(width: 430, height: 932)),
            Device(name: "ipad", size: Size(width: 820, height: 1180)),
        ]
    }

    public var layoutDirection: LayoutDirection?
    public var reduceMotion: Given<Bool>?
    public var dynamicType: DynamicTypeSize?
    public var width: Given<Double>?
    public var height: Given<Double>?
    /// The device `device=NAME` named, while its size stands: a later `width` or `height` clears
    /// it (the size is then no longer the device's).
    public private(set) var device: String?
    /// nil: not half of a mirror comparison; true: the mirrored run (`name [mirrored]`); false:
    /// its unmirrored twin, recorded and never reported.
    public var mirrored: Bool?
    /// The settings in the order they were given, which the label follows (a `device` whose size
    /// a later `width` or `height` changed counts as the two).
    public private(set) var order: [Key] = []

    public init() {}

    /// The settings `KEY=VALUE`, in order (`["layout_direction=rtl", "device=ipad"]`).
    public init(parsing settings: [String]) throws(Problem) {
        for setting in settings {
            guard let equals = setting.firstIndex(of: "=") else {
                throw Problem("a matrix setting is KEY=VALUE (like layout_direction=rtl), not '\(setting)'")
            }
            try set(String(setting[..<equals]), to: String(setting[setting.index(after: equals)...]))
        }
    }

    /// The settings `(key, value)`, in order, as `ScreenVariant.settings` holds them.
    public init(_ settings: [(key: String, value: String)]) throws(Problem) {
        for (key, value) in settings { try set(key, to: value) }
    }

    /// Sets `key` to `value`, as `--matrix key=value` does; a later setting of the same key wins.
    /// `mirror` is the setting `--mirror` adds (`on`, `off`), not a matrix key.
    public mutating func set(_ key: String, to value: String) throws(Problem) {
        if key == Self.mirrorKey {
            guard let flag = Self.flag(value) else {
                throw Problem("mirror: 'on' or 'off' expected, got '\(value)'")
            }
            mirrored = flag
            return
        }
        guard let known = Key(rawValue: key) else {
            let names = Key.allCases.map(\.rawValue)
            let near = nearestName(to: key, in: names)
            throw Problem(
                "unknown matrix key '\(key)'" + (near.map { " (did you mean '\($0)'?)" } ?? "")
                    + " (keys: \(names.joined(separator: ", ")))")
        }
        switch known {
        case .layoutDirection:
            guard let direction = LayoutDirection(name: value) else {
                throw Problem("layout_direction: \(LayoutDirection.unknownName(value))")
            }
            layoutDirection = direction
        case .reduceMotion:
            guard let flag = Self.flag(value) else {
                throw Problem("reduce_motion: 'on', 'off', 'true' or 'false' expected, got '\(value)'")
            }
            reduceMotion = Given(flag, text: value)
        case .dynamicType:
            guard let size = DynamicTypeSize(name: value) else {
                throw Problem("dynamic_type: \(DynamicTypeSize.unknownName(value))")
            }
            dynamicType = size
        case .width, .height:
            guard let number = Double(value), number.isFinite, number >= 0, number <= Self.maximumLength
            else {
                throw Problem("\(key): a number of points from 0 to 100000 expected, got '\(value)'")
            }
            if known == .width {
                width = Given(number, text: value)
            } else {
                height = Given(number, text: value)
            }
            if let index = order.firstIndex(of: .device) {
                device = nil
                order.replaceSubrange(index...index, with: [.width, .height])
            }
        case .device:
            guard let device = Device.all.first(where: { $0.name == value }) else {
                let names = Device.all.map(\.name)
                let near = nearestName(to: value, in: names)
                throw Problem(
                    "device: unknown device '\(value)'" + (near.map { " (did you mean '\($0)'?)" } ?? "")
                        + " (devices: \(names.joined(separator: ", ")))")
            }
            width = Given(device.size.width, text: formatNumber(device.size.width))
            height = Given(device.size.height, text: formatNumber(device.size.height))
            self.device = device.name
            order.removeAll { $0 == .width || $0 == .height }
        }
        given(known)
    }

    private mutating func given(_ key: Key) {
        if !order.contains(key) { order.append(key) }
    }

    /// The screen size the variant gives, a side it does not give taken from `defaults`.
    public func size(over defaults: Size) -> Size {
        Size(width: width?.value ?? defaults.width, height: height?.value ?? defaults.height)
    }

    /// How reports name the variant: `rtl, AX5, reduce_motion=on, 320 × 568, mirrored`, a device
    /// by its name and size (`iphone-se 375 × 667`, so `--filter iphone-se` finds it); "" for none.
    public var label: String {
        var parts: [String] = []
        for key in order {
            switch key {
            case .layoutDirection: layoutDirection.map { parts.append($0.rawValue) }
            case .dynamicType: dynamicType.map { parts.append($0.shortName) }
            case .reduceMotion: reduceMotion.map { parts.append("reduce_motion=\($0.text)") }
            case .width, .height, .device: break
            }
        }
        if width != nil || height != nil {
            let size = "\(width?.text ?? "-") × \(height?.text ?? "-")"
            parts.append(device.map { "\($0) \(size)" } ?? size)
        }
        if mirrored == true { parts.append("mirrored") }
        return parts.joined(separator: ", ")
    }

    /// The setting `--mirror` adds.
    public static let mirrorKey = "mirror"
    /// The largest width or height a variant may give, in points.
    public static let maximumLength = 100_000.0

    /// `on`/`off`, `true`/`false`, `yes`/`no`, `1`/`0`, in any case.
    static func flag(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "on", "true", "yes", "1": true
        case "off", "false", "no", "0": false
        default: nil
        }
    }

    /// A key or value that makes no sense, in words.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }
}

extension LayoutDirection {
    /// `"'ltr' or 'rtl' expected, got 'rlt'"`.
    public static func unknownName(_ name: String) -> String { "'ltr' or 'rtl' expected, got '\(name)'" }
}

extension DynamicTypeSize {
    /// `"unknown size 'AX9' (did you mean 'AX5'?)"`, or the list of sizes when none is near.
    public static func unknownName(_ name: String) -> String {
        let names = allCases.map(\.shortName)
        if let near = nearestName(to: name, in: names) {
            return "unknown size '\(name)' (did you mean '\(near)'?)"
        }
        return "unknown size '\(name)' (sizes: \(names.joined(separator: ", ")))"
    }
}
