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

extension OwnerChange {
    /// The owner replaced a component's cards (N14, W3): a notification stack's and a wallet's.
    public static func setItems(_ cards: [CardSpec]) -> OwnerChange {
        OwnerChange("set_items", [Field("items", .cards(cards))])
    }
}

extension OwnerChange.Schema {
    public static let setItems = OwnerChange.Schema("set_items", [.init("items", .cards)])
}

extension Screen {
    /// Replaces the cards of the notification stack or wallet `name` (N14).
    public func setItems(_ cards: [CardSpec], of name: String) throws {
        try change(.setItems(cards), of: name)
    }
}
