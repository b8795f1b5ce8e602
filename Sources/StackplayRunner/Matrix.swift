import Bindings
import StackModel
import TestResults
import Wording

/// `--matrix KEY=V1,V2,...` (repeatable) and `matrix = { KEY = { V1, V2 } }` in `.stackplay.lua`:
/// every test runs under every combination of screen settings.
struct Matrix: Equatable {
    /// Each key with its values, in the order given.
    var axes: [(key: String, values: [String])] = []

    static func == (a: Matrix, b: Matrix) -> Bool {
        a.axes.map(\.key) == b.axes.map(\.key) && a.axes.map(\.values) == b.axes.map(\.values)
    }

    var isEmpty: Bool { axes.isEmpty }

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
                continue
            }
            // Checked as the variant will read it, once: the message names the key.
            var probe = ScreenSettingsVariant()
            do { try probe.set(key, to: value) } catch { throw VariantError(error.message) }
            expanded.append(value)
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
        // Each axis multiplies the run: past the cap it is a typo, refused before any copy is made
        // (12 million copies of one test took 3.3 GB before the system stopped the run).
        // (the axes so far make at most mostVariants: the product cannot overflow)
        let count = axes.reduce(expanded.count) { $0 * $1.values.count }
        guard count <= Self.mostVariants else {
            let sizes = (axes.map(\.values.count) + [expanded.count]).map(String.init).joined(
                separator: " × ")
            throw VariantError(
                "\(key): the matrix would run every test \(sizes) times; at most \(Self.mostVariants) variants"
            )
        }
        axes.append((key, expanded))
    }

    /// The most variants a matrix may have (every test runs once under each).
    static let mostVariants = 4096

    /// Every combination, the first axis changing slowest (each value was checked by ``add``).
    var variants: [ScreenVariant] {
        var combinations: [ScreenSettingsVariant] = [ScreenSettingsVariant()]
        for axis in axes {
            combinations = combinations.flatMap { prefix in
                axis.values.map { value in
                    var variant = prefix
                    try? variant.set(axis.key, to: value)
                    return variant
                }
            }
        }
        return combinations.map(ScreenVariant.init)
    }

    /// Every test under every variant, each test's copies together.
    func apply(to tests: [TestCase]) -> [TestCase] {
        guard !isEmpty else { return tests }
        let variants = self.variants
        return tests.flatMap { test in variants.map { test.under($0) } }
    }

    /// Why `variant` is not run: the test's screens all give themselves (`fixed`, as
    /// ``Bindings/ScriptSession/fixedSettings``) a key the matrix varies, so its variants of that
    /// key would run one test under several names. The one that runs is the variant with the
    /// test's own value (the axis's first value when it has not that one); nil for it and for a
    /// variant of no such key.
    func overridden(_ variant: ScreenVariant, fixed: [String: String]?) -> String? {
        guard let fixed, !fixed.isEmpty, !isEmpty else { return nil }
        let settings = variant.settings
        var keys: [String] = []
        for axis in axes {
            guard let mine = settings.first(where: { $0.key == axis.key })?.value else { continue }
            let own: String?
            if axis.key == "device" {
                guard let width = fixed["width"], let height = fixed["height"] else { continue }
                own =
                    ScreenSettingsVariant.Device.all.first {
                        formatNumber($0.size.width) == width && formatNumber($0.size.height) == height
                    }?.name
            } else {
                guard let value = fixed[axis.key] else { continue }
                own = value
            }
            let runs = axis.values.first { Self.canonical(axis.key, $0) == own } ?? axis.values[0]
            if Self.canonical(axis.key, runs) != Self.canonical(axis.key, mine) { keys.append(axis.key) }
        }
        guard !keys.isEmpty else { return nil }
        return "skipped: the test sets \(keys.joined(separator: " and ")) itself"
    }

    /// A matrix value as a screen's own setting is written in ``Bindings/ScriptSession/fixedSettings``
    /// (`RTL` and `rtl` alike, `yes` and `on`); nil for a value the key does not take.
    static func canonical(_ key: String, _ value: String) -> String? {
        var probe = ScreenSettingsVariant()
        guard (try? probe.set(key, to: value)) != nil else { return nil }
        switch ScreenSettingsVariant.Key(rawValue: key) {
        case .layoutDirection?: return probe.layoutDirection?.rawValue
        case .reduceMotion?: return probe.reduceMotion.map { $0.value ? "on" : "off" }
        case .dynamicType?: return probe.dynamicType?.shortName
        case .width?: return probe.width.map { formatNumber($0.value) }
        case .height?: return probe.height.map { formatNumber($0.value) }
        case .device?: return probe.device
        case nil: return nil
        }
    }
}
