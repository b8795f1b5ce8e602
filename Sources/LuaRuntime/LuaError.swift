/// An error raised into Lua by a bound Swift function. Its description is the message; the
/// caller's `chunkname:line:` is put in front, as `luaL_error` does.
public struct LuaError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The message, without position.
    public var message: String

    /// An error with this message.
    public init(_ message: String) { self.message = message }

    public var description: String { message }

    /// lauxlib's `luaL_argerror` wording: `bad argument #2 to 'drag' (number expected, got nil)`,
    /// or `calling 'settle' on bad self (...)` for a method's receiver.
    public static func badArgument(
        _ position: Int, to function: String, isMethod: Bool = false, _ detail: String
    )
        -> LuaError
    {
        if isMethod {
            if position == 1 { return LuaError("calling '\(function)' on bad self (\(detail))") }
            return LuaError("bad argument #\(position - 1) to '\(function)' (\(detail))")
        }
        return LuaError("bad argument #\(position) to '\(function)' (\(detail))")
    }
}

/// Why running a chunk failed: the script's own error, a load (syntax or file) error, or a budget stop.
public struct LuaFailure: Error, CustomStringConvertible, Equatable, Sendable {
    /// What kind of failure it is.
    public enum Kind: Sendable, Equatable {
        /// The file could not be read or did not compile.
        case load
        /// An error the script raised or caused, including failed `assert`s.
        case error
        /// The CPU budget ran out.
        case cpuBudget
        /// The memory budget ran out.
        case memoryBudget
    }

    public var kind: Kind
    /// `path:line: message`, as Lua reports it.
    public var message: String
    /// Lua's `stack traceback:` lines, or "" when there is none (load errors, some stops).
    public var traceback: String

    /// A failure of `kind`. The message is cut at ``maximumMessageBytes`` and the traceback at
    /// ``maximumTracebackLines``, each saying how much was left out, so a hostile script cannot
    /// make a report (or a JUnit file) of any size.
    public init(kind: Kind, message: String, traceback: String = "") {
        self.kind = kind
        self.message = Self.bounded(message)
        self.traceback = Self.bounded(traceback: traceback)
    }

    /// The longest message a failure keeps, in bytes of UTF-8.
    public static let maximumMessageBytes = 65_536
    /// The most traceback lines a failure keeps (Lua's own traceback keeps 22, but a message
    /// handler's text may hold any number).
    public static let maximumTracebackLines = 200

    /// `message` cut at a character boundary within ``maximumMessageBytes``, then
    /// `... (N more bytes)`.
    package static func bounded(_ message: String) -> String {
        guard message.utf8.count > maximumMessageBytes else { return message }
        var end = message.utf8.index(message.utf8.startIndex, offsetBy: maximumMessageBytes)
        while !message.unicodeScalars.indices.contains(end) && end > message.startIndex {
            end = message.utf8.index(before: end)
        }
        let kept = message[..<end]
        return kept + "\n... (\(message.utf8.count - kept.utf8.count) more bytes)"
    }

    /// The first ``maximumTracebackLines`` lines of `traceback`, then `... (N more)`.
    package static func bounded(traceback: String) -> String {
        let lines = traceback.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > maximumTracebackLines else { return bounded(traceback) }
        let kept = lines.prefix(maximumTracebackLines).joined(separator: "\n")
        return bounded(kept + "\n... (\(lines.count - maximumTracebackLines) more)")
    }

    public var description: String { traceback.isEmpty ? message : message + "\n" + traceback }

    /// Splits what the message handler returned into the message and the `stack traceback:` part.
    package static func split(_ reported: String) -> (message: String, traceback: String) {
        guard let range = reported.firstRange(of: "\nstack traceback:") else { return (reported, "") }
        return (
            String(reported[..<range.lowerBound]),
            String(reported[reported.index(after: range.lowerBound)...])
        )
    }
}
