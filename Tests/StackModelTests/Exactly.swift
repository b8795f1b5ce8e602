/// A `Double` that compares like the seed's arithmetic must: equal value and equal sign (so `-0`
/// is not `0`), and NaN equal to NaN, so that `#expect` can pin NaN results too.
///
/// NaN payloads are not compared: `inf - inf` and `Double.nan` are both "NaN" here.
struct Exactly: Equatable, CustomStringConvertible {
    let value: Double

    init(_ value: Double) { self.value = value }

    static func == (lhs: Exactly, rhs: Exactly) -> Bool {
        if lhs.value.isNaN || rhs.value.isNaN { return lhs.value.isNaN && rhs.value.isNaN }
        return lhs.value == rhs.value && lhs.value.sign == rhs.value.sign
    }

    var description: String { "\(value)" }
}

extension Double {
    /// This value for an exact `#expect`: `#expect(result.exactly == 0.94.exactly)`.
    var exactly: Exactly { Exactly(self) }
}

extension Array where Element == Double {
    /// These values for an exact `#expect`, element by element.
    var exactly: [Exactly] { map(Exactly.init) }
}
