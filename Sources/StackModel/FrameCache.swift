/// What a component computed from one state of its own at one moment of the screen (its cards'
/// snapshots, its whole snapshot, its accessibility elements), kept until either changes.
///
/// A step of `stackplay explore` reads the frame of an unchanged component three times or more
/// (the generator's aim, the frame-level invariants, a Lua invariant's `stack:count()`), and each
/// reading computed every animated value again. The component bumps its ``Revision`` on every
/// change of a stored property a frame reads; a cached value is handed out only for the same
/// revision and settings that are the same bit for bit (`-0` is not `0`, so no byte a frame
/// prints can differ from a fresh computation's).
struct FrameCache<Value> {
    private var revision = 0
    private var settings = ScreenSettings()
    private var value: Value?
    /// Whether it keeps anything: off, every reading computes afresh (the tests' reference).
    var isOn = true

    /// The value kept for `revision` and `settings`, or nil.
    func value(_ revision: Revision, _ settings: ScreenSettings) -> Value? {
        guard isOn, let value, revision.count == self.revision, settings.isIdentical(to: self.settings) else {
            return nil
        }
        return value
    }

    /// `value`, kept for `revision` and `settings` (the last one only).
    mutating func keep(_ value: Value, _ revision: Revision, _ settings: ScreenSettings) -> Value {
        guard isOn else { return value }
        self.value = value
        self.revision = revision.count
        self.settings = settings
        return value
    }
}

/// How many times a component's state has changed: every stored property a frame reads bumps
/// it (`didSet`), which is what lets a ``FrameCache`` know a value is still current.
struct Revision {
    private(set) var count = 0
    mutating func bump() { count &+= 1 }
}

extension ScreenSettings {
    /// Whether `other` is these settings bit for bit (`==` takes `-0` for `0`).
    func isIdentical(to other: ScreenSettings) -> Bool {
        now.bitPattern == other.now.bitPattern && size.width.bitPattern == other.size.width.bitPattern
            && size.height.bitPattern == other.size.height.bitPattern && layoutDirection == other.layoutDirection
            && reduceMotion == other.reduceMotion && dynamicTypeSize == other.dynamicTypeSize
    }
}
