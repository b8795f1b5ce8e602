import LuaRuntime

/// What a test printed (`print` in its sandbox): kept with its result, never written to the
/// terminal while reports are written there. Bounded, so that a printing loop cannot fill memory.
///
/// The bytes live in a buffer of their own, and the Lua state is told where after every change
/// (``note``): a test stopped inside a C function (a backtracking `string.find`) ends its worker
/// from a signal handler, which sends these bytes with the stop (watchdog.c), so the reports keep
/// what the test printed before it was stopped.
package final class CapturedOutput {
    /// The most a test keeps, in bytes; the rest is counted and noted.
    static let limit = 1 << 20

    private var bytes: UnsafeMutablePointer<UInt8>?
    private var capacity = 0
    private var count = 0
    private var dropped = 0

    /// Where the state hears of each change; nil: no state watches (a host's, a test's own).
    package var note: LuaOutputNote? {
        didSet { tell() }
    }

    package init() {}

    deinit {
        note = nil
        bytes?.deallocate()
    }

    /// The bytes it may still keep.
    var room: Int { dropped == 0 ? max(0, Self.limit - count) : 0 }

    /// The bytes kept.
    private var kept: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: bytes, count: count) }

    /// Adds `piece`, or counts it once the limit is reached.
    func append(_ piece: String) { append(piece, length: piece.utf8.count) }

    /// Adds `piece`, the start of a piece of `length` bytes (all of it when it fits: a sink reads
    /// no more than ``room`` of a longer one), or counts the `length` bytes once it does not fit.
    func append(_ piece: String, length: Int) {
        guard dropped == 0, length <= room else {
            dropped += length
            tell()
            return
        }
        var piece = piece
        piece.withUTF8 { utf8 in
            reserve(count + utf8.count)
            if let start = utf8.baseAddress, let bytes {
                (bytes + count).update(from: start, count: utf8.count)
            }
            count += utf8.count
        }
        tell()
    }

    /// Room for `needed` bytes: a larger buffer is told to the state before the old one goes.
    private func reserve(_ needed: Int) {
        guard needed > capacity else { return }
        let grown = max(needed, capacity * 2, 256)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        if let bytes { larger.update(from: bytes, count: count) }
        let old = bytes
        bytes = larger
        capacity = grown
        tell()
        old?.deallocate()
    }

    private func tell() { note?.note(UnsafeRawBufferPointer(kept), dropped: dropped) }

    /// The output, with a last line saying how much was left out.
    package var captured: String {
        let text = String(decoding: kept, as: UTF8.self)
        return dropped == 0 ? text : text + Self.droppedLine(dropped)
    }

    /// The line that says how many bytes of output were not kept.
    package static func droppedLine(_ dropped: Int) -> String {
        "... (\(dropped) more bytes of output not kept)\n"
    }

    /// What was kept and counted at a moment, for ``restore(_:)``.
    package struct Mark {
        fileprivate let bytes: [UInt8]
        fileprivate let dropped: Int
    }

    package var mark: Mark { Mark(bytes: Array(kept), dropped: dropped) }

    /// Back to what it held at `mark` (a snapshot-restored state's output at its snapshot).
    package func restore(_ mark: Mark) {
        reserve(mark.bytes.count)
        mark.bytes.withUnsafeBufferPointer { saved in
            if let start = saved.baseAddress, let bytes { bytes.update(from: start, count: saved.count) }
        }
        count = mark.bytes.count
        dropped = mark.dropped
        tell()
    }
}
