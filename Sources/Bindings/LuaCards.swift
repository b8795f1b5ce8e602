import LuaRuntime
import StackModel

/// The ids of an `items` option given as integers (`1`, or `{ id = 1 }`).
func integerIDs(_ options: LuaOptions) -> Set<String> {
    guard case .array(let list)? = options.entries["items"] else { return [] }
    var ids = Set<String>()
    for element in list {
        switch element {
        case .integer(let number): ids.insert(String(number))
        case .table(let fields): if case .integer(let number)? = fields["id"] { ids.insert(String(number)) }
        default: break
        }
    }
    return ids
}

/// Reads the cards of an `items` option: ids (`"mail"`) or tables (`{ id =, height =, label = }`).
func readCards(_ options: LuaOptions, defaultHeight: Double) throws -> [CardSpec] {
    guard let value = options.entries["items"] else {
        throw options.error("items", "table expected, got nil")
    }
    let elements: [LuaValue]
    switch value {
    case .array(let list): elements = list
    case .table(let table) where table.isEmpty: elements = []
    default:
        throw options.error(
            "items", "list of ids or { id =, height = } tables expected, got \(value.typeName)")
    }
    // The cards are made in one Swift call: their memory must fit before they exist.
    if let stack = options.stack, !stack.hasRoom(for: elements.count * MemoryEstimate.cardBytes) {
        throw options.error("items", "\(elements.count) cards need more memory than the budget has left")
    }
    var seen = Set<ByteKey>()
    return try elements.enumerated().map { index, element in
        let card: CardSpec
        switch element {
        case .string(let id): card = CardSpec(id: id, height: defaultHeight)
        case .integer(let id): card = CardSpec(id: String(id), height: defaultHeight)
        case .table(let fields):
            for key in fields.keys where !["id", "height", "label"].contains(key) {
                var detail = "unknown field '\(key)' in item \(index + 1)"
                if let near = nearestName(to: key, in: ["id", "height", "label"]) {
                    detail += " (did you mean '\(near)'?)"
                }
                throw options.error("items", detail)
            }
            let id: String
            switch fields["id"] {
            case .string(let text): id = text
            case .integer(let number): id = String(number)
            default: throw options.error("items", "item \(index + 1) needs an id (a string)")
            }
            var height = defaultHeight
            if let raw = fields["height"] {
                guard let number = raw.number, number.isFinite, number >= 0 else {
                    throw options.error("items", "item '\(id)': height must be a finite number ≥ 0")
                }
                height = number
            }
            let label: String? = try fields["label"].map {
                guard let text = $0.string else {
                    throw options.error("items", "item '\(id)': label must be a string")
                }
                return text
            }
            card = CardSpec(id: id, height: height, label: label)
        default:
            throw options.error(
                "items", "item \(index + 1) must be an id or a table, got \(element.typeName)")
        }
        guard !card.id.isEmpty else { throw options.error("items", "item \(index + 1) has an empty id") }
        guard seen.insert(ByteKey(card.id)).inserted else {
            throw options.error("items", "id '\(card.id)' is given twice")
        }
        return card
    }
}
