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

    /// The value kept for `revision` and `settings`, or nil. (`mutating` only so that a class
    /// holding it reads it in place: a non-mutating call copies the whole cache out first.)
    mutating func value(_ revision: Revision, _ settings: ScreenSettings) -> Value? {
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
            && size.height.bitPattern == other.size.height.bitPattern
            && layoutDirection == other.layoutDirection
            && reduceMotion == other.reduceMotion && dynamicTypeSize == other.dynamicTypeSize
    }
}

/// A component's kept frames and the revision of its state they are kept for: the component
/// bumps it from the `didSet` of every stored property a frame reads, and reads every frame
/// through here.
final class KeptFrames {
    @exclusivity(unchecked) private(set) var revision = Revision()
    @exclusivity(unchecked) private var cards = FrameCache<[CardSnapshot]>()
    @exclusivity(unchecked) private var snapshot = FrameCache<ComponentSnapshot>()
    @exclusivity(unchecked) private var elements = FrameCache<[AccessibilityElement]>()
    @exclusivity(unchecked) private var endTime = FrameCache<Double?>()

    /// The component's state changed: nothing kept is current any more.
    func bump() { revision.bump() }

    func cards(in settings: ScreenSettings, _ make: () -> [CardSnapshot]) -> [CardSnapshot] {
        if let kept = cards.value(revision, settings) { return kept }
        return cards.keep(make(), revision, settings)
    }

    func snapshot(in settings: ScreenSettings, _ make: () -> ComponentSnapshot) -> ComponentSnapshot {
        if let kept = snapshot.value(revision, settings) { return kept }
        return snapshot.keep(make(), revision, settings)
    }

    func elements(in settings: ScreenSettings, _ make: () -> [AccessibilityElement]) -> [AccessibilityElement]
    {
        if let kept = elements.value(revision, settings) { return kept }
        return elements.keep(make(), revision, settings)
    }

    /// The animations' latest end, which reads no settings.
    func endTime(_ make: () -> Double?) -> Double? {
        if let kept = endTime.value(revision, Self.anyMoment) { return kept }
        return endTime.keep(make(), revision, Self.anyMoment)
    }

    private static let anyMoment = ScreenSettings()

    /// Every frame computed afresh from now on, none kept: the reference a test compares the
    /// kept frames with.
    func stop() {
        cards.isOn = false
        snapshot.isOn = false
        elements.isOn = false
        endTime.isOn = false
    }
}
