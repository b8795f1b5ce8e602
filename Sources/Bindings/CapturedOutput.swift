/// What a test printed (`print` in its sandbox): kept with its result, never written to the
/// terminal while reports are written there. Bounded, so that a printing loop cannot fill memory.
package final class CapturedOutput {
    /// The most a test keeps, in bytes; the rest is counted and noted.
    static let limit = 1 << 20

    private(set) var text = ""
    private var dropped = 0

    /// The bytes it may still keep.
    var room: Int { dropped == 0 ? max(0, Self.limit - text.utf8.count) : 0 }

    /// Adds `piece`, or counts it once the limit is reached.
    func append(_ piece: String) { append(piece, length: piece.utf8.count) }

    /// Adds `piece`, the start of a piece of `length` bytes (all of it when it fits: a sink reads
    /// no more than ``room`` of a longer one), or counts the `length` bytes once it does not fit.
    func append(_ piece: String, length: Int) {
        if dropped == 0, length <= room {
            text += piece
        } else {
            dropped += length
        }
    }

    /// The output, with a last line saying how much was left out.
    package var captured: String {
        dropped == 0 ? text : text + "... (\(dropped) more bytes of output not kept)\n"
    }

    /// What was kept and counted at a moment, for ``restore(_:)``.
    package struct Mark {
        fileprivate let text: String
        fileprivate let dropped: Int
    }

    package var mark: Mark { Mark(text: text, dropped: dropped) }

    /// Back to what it held at `mark` (a snapshot-restored state's output at its snapshot).
    package func restore(_ mark: Mark) {
        text = mark.text
        dropped = mark.dropped
    }
}
