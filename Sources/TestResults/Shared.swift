/// A value's fields, stored once and shared by its copies until one of them changes (copy on
/// write): ``TestCase`` and ``TestResult`` are copied at every step from a worker's answer to the
/// report, and a copy is then one reference, not one per field.
struct Shared<Fields>: @unchecked Sendable {
    /// The fields. Unchecked exclusivity: every access is a read or, through the uniqueness check
    /// below, a write to a box only this value holds. (Sendable as the fields are: a box that is
    /// shared is never written.)
    private final class Box {
        @exclusivity(unchecked) var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    init(_ fields: Fields) { box = Box(fields) }

    var fields: Fields {
        _read { yield box.fields }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
            yield &box.fields
        }
    }

    /// Whether `other` is a copy of this value (or this of it), neither changed since.
    func isSame(as other: Shared) -> Bool { box === other.box }
}
