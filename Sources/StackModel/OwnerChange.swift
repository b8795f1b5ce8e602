/// A change the owner of a component makes to its bindings (a notification stack's
/// `isExpanded`, a wallet's `selection`): an input of its own, which the screen applies through
/// the component (`Component.apply(_:in:)`), reports to `onEvent`, and a replay feeds back.
///
/// A change is data, so that traces record and read every kind's changes the same way: its name
/// (a trace event's `type`, `"set_expanded"`) and its fields in the order a trace writes them.
/// Each component declares the changes it takes as `OwnerChange.Schema`s, in its own files.
public struct OwnerChange: Hashable, Sendable {
    /// The trace event type: `"set_expanded"`.
    public var name: String
    public var fields: [Field]

    public init(_ name: String, _ fields: [Field]) {
        self.name = name
        self.fields = fields
    }

    /// One named value of a change.
    public struct Field: Hashable, Sendable {
        public var name: String
        public var value: Value

        public init(_ name: String, _ value: Value) {
            self.name = name
            self.value = value
        }
    }

    /// What a field holds.
    public enum Value: Hashable, Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case cards([CardSpec])
    }

    /// The type a field must have; a trace is read by it.
    public enum FieldType: Hashable, Sendable {
        case bool
        /// Any finite number.
        case number
        /// A number ≥ 0.
        case nonNegative
        /// A string, or null for none.
        case optionalString
        case cards
    }

    /// A change's name and the fields it carries, in trace order.
    public struct Schema: Hashable, Sendable {
        public var name: String
        public var fields: [FieldSpec]

        public init(_ name: String, _ fields: [FieldSpec]) {
            self.name = name
            self.fields = fields
        }
    }

    /// A field's name and type.
    public struct FieldSpec: Hashable, Sendable {
        public var name: String
        public var type: FieldType

        public init(_ name: String, _ type: FieldType) {
            self.name = name
            self.type = type
        }
    }

    // MARK: Reading a change's fields (for `Component.apply`)

    public func value(_ key: String) throws -> Value {
        guard let field = fields.first(where: { $0.name == key }) else {
            throw StackModelError("\(name): field '\(key)' is missing")
        }
        return field.value
    }

    public func bool(_ key: String) throws -> Bool {
        guard case .bool(let flag) = try value(key) else { throw wrongType(key, "boolean") }
        return flag
    }

    public func number(_ key: String) throws -> Double {
        guard case .number(let number) = try value(key) else { throw wrongType(key, "number") }
        return number
    }

    public func optionalString(_ key: String) throws -> String? {
        switch try value(key) {
        case .null: return nil
        case .string(let text): return text
        default: throw wrongType(key, "string or null")
        }
    }

    public func cards(_ key: String) throws -> [CardSpec] {
        guard case .cards(let cards) = try value(key) else { throw wrongType(key, "cards") }
        return cards
    }

    private func wrongType(_ key: String, _ expected: String) -> StackModelError {
        StackModelError("\(name): field '\(key)' must be \(expected)")
    }
}

/// A change of one value, declared once where its component is: the name and field a trace gives
/// it, the field's type, and how the Swift value goes in and comes out. The change itself
/// (`OwnerChange.setExpanded(true)`), its ``OwnerChange/Schema`` (what traces and the explorer
/// read) and the kind's `apply` (through ``OwnerChangeHandler``) all come from it.
public struct OwnerChangeType<Payload: OwnerChangePayload>: Sendable {
    public let schema: OwnerChange.Schema

    /// `OwnerChangeType<Bool>("set_expanded", field: "expanded")`.
    public init(_ name: String, field: String, type: OwnerChange.FieldType = Payload.fieldType) {
        schema = OwnerChange.Schema(name, [OwnerChange.FieldSpec(field, type)])
    }

    public var name: String { schema.name }
    var field: String { schema.fields[0].name }

    /// The change that sets this value.
    public func callAsFunction(_ value: Payload) -> OwnerChange {
        OwnerChange(name, [OwnerChange.Field(field, value.ownerChangeValue)])
    }

    /// The value `change` carries when it is this change, else nil; throws when its field is
    /// missing or of another type.
    public func value(of change: OwnerChange) throws -> Payload? {
        guard change.name == name else { return nil }
        return try Payload(from: change, field)
    }
}

/// A Swift value a one-field owner change carries, and the field type a trace reads it by.
public protocol OwnerChangePayload: Sendable {
    static var fieldType: OwnerChange.FieldType { get }
    var ownerChangeValue: OwnerChange.Value { get }
    /// The value of `change`'s field `key`.
    init(from change: OwnerChange, _ key: String) throws
}

extension Bool: OwnerChangePayload {
    public static var fieldType: OwnerChange.FieldType { .bool }
    public var ownerChangeValue: OwnerChange.Value { .bool(self) }
    public init(from change: OwnerChange, _ key: String) throws { self = try change.bool(key) }
}

extension Double: OwnerChangePayload {
    public static var fieldType: OwnerChange.FieldType { .number }
    public var ownerChangeValue: OwnerChange.Value { .number(self) }
    public init(from change: OwnerChange, _ key: String) throws { self = try change.number(key) }
}

extension Optional: OwnerChangePayload where Wrapped == String {
    public static var fieldType: OwnerChange.FieldType { .optionalString }
    public var ownerChangeValue: OwnerChange.Value { map { .string($0) } ?? .null }
    public init(from change: OwnerChange, _ key: String) throws { self = try change.optionalString(key) }
}

extension Array: OwnerChangePayload where Element == CardSpec {
    public static var fieldType: OwnerChange.FieldType { .cards }
    public var ownerChangeValue: OwnerChange.Value { .cards(self) }
    public init(from change: OwnerChange, _ key: String) throws { self = try change.cards(key) }
}

/// What a kind does with one of the changes it takes: its kind's list of these is the one place
/// that says which changes it takes (`ownerChanges`) and how it applies them (`apply`).
public struct OwnerChangeHandler<C: Component>: Sendable {
    public let schema: OwnerChange.Schema
    private let body: @Sendable (C, OwnerChange, ScreenSettings) throws -> Bool

    public init<P>(
        _ type: OwnerChangeType<P>, _ apply: @escaping @Sendable (C, P, ScreenSettings) throws -> Void
    ) {
        schema = type.schema
        body = { component, change, settings in
            guard let value = try type.value(of: change) else { return false }
            try apply(component, value, settings)
            return true
        }
    }

    /// Applies `change` to `component` through the first of `handlers` that takes it; throws the
    /// kind's ``Component/unsupported(_:)`` error when none does.
    public static func apply(
        _ change: OwnerChange, to component: C, by handlers: [Self], in settings: ScreenSettings
    ) throws {
        for handler in handlers where handler.schema.name == change.name {
            if try handler.body(component, change, settings) { return }
        }
        throw component.unsupported(change)
    }
}

extension OwnerChange {
    /// The owner replaced a component's cards (N14, W3): a notification stack's and a wallet's.
    public static let setItems = OwnerChangeType<[CardSpec]>("set_items", field: "items")
}

extension Screen {
    /// Replaces the cards of the notification stack or wallet `name` (N14).
    public func setItems(_ cards: [CardSpec], of name: String) throws {
        try change(.setItems(cards), of: name)
    }
}
