import Bindings
import StackModel
import TestResults

/// `--matrix KEY=V1,V2,...` (repeatable) and `matrix = { KEY = { V1, V2 } }` in `.stackplay.lua`:
/// every test runs under every combination of screen settings.
struct Matrix: Equatable {
    /// Each key with its values, in the order given.
    var axes: [(key: String, values: [String])] = []

    static func == (a: Matrix, b: Matrix) -> Bool {
        a.axes.map(\.key) == b.axes.map(\.key) && a.axes.map(\.values) == b.axes.map(\.values)
    }

    var isEmpty: Bool { axes.isEmpty }

    /// Named screen sizes for `device=...`: points, portrait.
    static let devices: [(name: String, width: Double, height: Double)] = [
        ("iphone-se", 375, 667), ("iphone-15", 393, 852), ("iphone-15-pro-max", 430, 932),
        ("ipad", 820, 1180),
    ]

    /// Adds `KEY=V1,V2` (a flag's value); `dynamic_type=all` is every size, `device=NAME` a
    /// named size. Errors name the key or value, with suggestions.
    mutating func add(_ text: String) throws(VariantError) {
        guard let equals = text.firstIndex(of: "=") else {
            throw VariantError(
                "a matrix axis is KEY=V1,V2,... (like layout_direction=ltr,rtl), not '\(text)'")
        }
        let key = String(text[..<equals])
        let values = text[text.index(after: equals)...].split(
            separator: ",", omittingEmptySubsequences: false
        )
        .map(String.init)
        try add(key: key, values: values)
    }

    mutating func add(key: String, values: [String]) throws(VariantError) {
        guard !values.isEmpty, !values.contains(where: \.isEmpty) else {
            throw VariantError("\(key): values separated by commas expected")
        }
        guard key != ScreenVariant.mirrorKey else {
            throw VariantError("mirror is not a matrix key: --mirror runs every test mirrored as well")
        }
        guard !axes.contains(where: { $0.key == key }) else {
            throw VariantError("\(key) is given twice: give all its values at once (\(key)=a,b)")
        }
        var expanded: [String] = []
        for value in values {
            if key == "dynamic_type", value == "all" {
                expanded += DynamicTypeSize.allCases.map(\.shortName)
            } else if key == "device" {
                guard Self.devices.contains(where: { $0.name == value }) else {
                    let names = Self.devices.map(\.name)
                    let near = nearestName(to: value, in: names)
                    throw VariantError(
                        "device: unknown device '\(value)'" + (near.map { " (did you mean '\($0)'?)" } ?? "")
                            + " (devices: \(names.joined(separator: ", ")))")
                }
                expanded.append(value)
            } else {
                if let problem = ScreenVariant.problem(key: key, value: value) { throw problem }
                expanded.append(value)
            }
        }
        var seen: Set<[UInt8]> = []
        for value in expanded where !seen.insert(Array(value.utf8)).inserted {
            let all =
                key == "dynamic_type" && values.contains("all") && !values.filter { $0 == value }.isEmpty
            throw VariantError(
                "\(key): '\(value)' is given twice"
                    + (all ? " (dynamic_type=all holds every size already)" : "")
                    + ": each test would run twice under one name")
        }
        axes.append((key, expanded))
    }

    /// Every combination, the first axis changing slowest.
    var variants: [ScreenVariant] {
        var combinations: [[ScreenVariant.Setting]] = [[]]
        for axis in axes {
            combinations = combinations.flatMap { prefix in
                axis.values.map { value in prefix + Self.settings(key: axis.key, value: value) }
            }
        }
        return combinations.map(ScreenVariant.init)
    }

    private static func settings(key: String, value: String) -> [ScreenVariant.Setting] {
        guard key == "device", let device = devices.first(where: { $0.name == value }) else {
            return [ScreenVariant.Setting(key: key, value: value)]
        }
        return [
            ScreenVariant.Setting(key: "width", value: formatNumber(device.width)),
            ScreenVariant.Setting(key: "height", value: formatNumber(device.height)),
        ]
    }

    /// Every test under every variant, each test's copies together.
    func apply(to tests: [TestCase]) -> [TestCase] {
        guard !isEmpty else { return tests }
        let variants = self.variants
        return tests.flatMap { test in variants.map { test.under($0) } }
    }
}
