import Wording

/// One test of a script: a `test(name, fn)` of the file, or the whole file when it defines none.
///
/// Its fields are stored once and shared by every copy until one of them changes (copy on write):
/// a test is copied at every step from a worker's answer to the report (the file's list, the
/// chosen tests, each request, each result), and a copy is one reference, not ten.
public struct TestCase: Sendable, Equatable {
    private struct Fields {
        var file: String
        var root: String?
        var name: String
        var position: String
        var index: Int
        var skipped: Bool
        var focused: Bool
        var tags: [String]
        var variant = ScreenVariant()
        var baseName: String
    }

    private var shared: Shared<Fields>

    /// The script's path as given.
    public var file: String {
        get { shared.fields.file }
        _modify { yield &shared.fields.file }
    }
    /// Where the script's `require` looks.
    public var root: String? {
        get { shared.fields.root }
        _modify { yield &shared.fields.root }
    }
    /// The test's name; for a file without tests, its path.
    public var name: String {
        get { shared.fields.name }
        _modify { yield &shared.fields.name }
    }
    /// `path:line` where the test is defined.
    public var position: String {
        get { shared.fields.position }
        _modify { yield &shared.fields.position }
    }
    /// 1-based index among the file's tests; 0 for a whole file without tests.
    public var index: Int {
        get { shared.fields.index }
        _modify { yield &shared.fields.index }
    }
    /// `skip(...)`, or not `only(...)` while another test of the file is.
    public var skipped: Bool {
        get { shared.fields.skipped }
        _modify { yield &shared.fields.skipped }
    }
    /// Defined with `only(...)`: `--forbid-only` (and CI) refuse it.
    public var focused: Bool {
        get { shared.fields.focused }
        _modify { yield &shared.fields.focused }
    }
    /// `test(name, { tags = { "rtl", "smoke" } }, fn)`: what `--tag` and `--exclude-tag` select by.
    public var tags: [String] {
        get { shared.fields.tags }
        _modify { yield &shared.fields.tags }
    }
    /// The screen settings `--matrix` runs this copy of the test under (none: the defaults).
    public var variant: ScreenVariant {
        get { shared.fields.variant }
        _modify { yield &shared.fields.variant }
    }
    /// Whether it runs mirrored (``ScreenVariant/isMirrored``), read without a copy of the variant.
    public var isMirrored: Bool { shared.fields.variant.isMirrored }
    /// The name the test has in its file, without the variant (`name` shows it: `t [rtl, AX5]`).
    public var baseName: String {
        get { shared.fields.baseName }
        _modify { yield &shared.fields.baseName }
    }

    public init(
        file: String, root: String?, name: String, position: String, index: Int, skipped: Bool,
        focused: Bool = false, tags: [String] = []
    ) {
        shared = Shared(
            Fields(
                file: file, root: root, name: name, position: position, index: index, skipped: skipped,
                focused: focused, tags: tags, baseName: name))
    }

    /// This test under `variant`: named `name [label]`, so that reports, filters, shards and trace
    /// names tell the copies apart.
    public func under(_ variant: ScreenVariant) -> TestCase {
        guard !variant.settings.isEmpty else { return self }
        var copy = self
        copy.variant = variant
        copy.name = baseName + " [" + variant.label + "]"
        return copy
    }

    /// The same test: every name compared by its bytes (`isSameBytes`), so that NFC and NFD "café"
    /// are two tests, as they are two in Lua.
    public static func == (lhs: TestCase, rhs: TestCase) -> Bool {
        if lhs.shared.isSame(as: rhs.shared) { return true }
        let (lhs, rhs) = (lhs.shared.fields, rhs.shared.fields)
        return lhs.file.isSameBytes(rhs.file) && lhs.root.isSameBytes(rhs.root)
            && lhs.name.isSameBytes(rhs.name)
            && lhs.position.isSameBytes(rhs.position) && lhs.index == rhs.index && lhs.skipped == rhs.skipped
            && lhs.focused == rhs.focused && lhs.tags.elementsEqual(rhs.tags) { $0.isSameBytes($1) }
            && lhs.variant == rhs.variant && lhs.baseName.isSameBytes(rhs.baseName)
    }

    /// Whether `self` and `other` are one stored test (a copy of the other, neither changed since):
    /// equal without a look at their fields.
    public func isSameStorage(as other: TestCase) -> Bool { shared.isSame(as: other.shared) }

    /// The file's name and the test's, as lists and filters show them: `path: name`.
    public var fullName: String {
        index == 0 ? (variant.settings.isEmpty ? file : "\(file) [\(variant.label)]") : "\(file): \(name)"
    }
}
