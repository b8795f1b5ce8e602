/// Why a trace cannot be read: the file, the 1-based line, the field when one is at fault, and
/// what is wrong. Printed as `path:12: field 'x': number expected, got null`.
public struct TraceError: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    /// The path of the field at fault (`cards[2].y`), or nil for the line as a whole.
    public var field: String?
    public var message: String

    public init(file: String, line: Int, field: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.field = field
        self.message = message
    }

    /// Line 0: the file could not be read at all, and the message names it.
    public var description: String {
        if line == 0 { return message }
        return "\(file):\(line): " + (field.map { "field '\($0)': " } ?? "") + message
    }
}
