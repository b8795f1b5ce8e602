import Wording

/// One test of a script: a `test(name, fn)` of the file, or the whole file when it defines none.
public struct TestCase: Sendable, Equatable {
    /// The script's path as given.
    public var file: String
    /// Where the script's `require` looks.
    public var root: String?
    /// The test's name; for a file without tests, its path.
    public var name: String
    /// `path:line` where the test is defined.
    public var position: String
    /// 1-based index among the file's tests; 0 for a whole file without tests.
    public var index: Int
    /// `skip(...)`, or not `only(...)` while another test of the file is.
    public var skipped: Bool
    /// Defined with `only(...)`: `--forbid-only` (and CI) refuse it.
    public var focused: Bool
    /// `test(name, { tags = { "rtl", "smoke" } }, fn)`: what `--tag` and `--exclude-tag` select by.
    public var tags: [String]
    /// The screen settings `--matrix` runs this copy of the test under (none: the defaults).
    public var variant: ScreenVariant = ScreenVariant()
    /// The name the test has in its file, without the variant (`name` shows it: `t [rtl, AX5]`).
    public var baseName: String

    public init(
        file: String, root: String?, name: String, position: String, index: Int, skipped: Bool,
        focused: Bool = false, tags: [String] = []
    ) {
        self.file = file
        self.root = root
        self.name = name
        self.position = position
        self.index = index
        self.skipped = skipped
        self.focused = focused
        self.tags = tags
        self.baseName = name
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
        lhs.file.isSameBytes(rhs.file) && lhs.root.isSameBytes(rhs.root) && lhs.name.isSameBytes(rhs.name)
            && lhs.position.isSameBytes(rhs.position) && lhs.index == rhs.index && lhs.skipped == rhs.skipped
            && lhs.focused == rhs.focused && lhs.tags.elementsEqual(rhs.tags) { $0.isSameBytes($1) }
            && lhs.variant == rhs.variant && lhs.baseName.isSameBytes(rhs.baseName)
    }

    /// The file's name and the test's, as lists and filters show them: `path: name`.
    public var fullName: String {
        index == 0 ? (variant.settings.isEmpty ? file : "\(file) [\(variant.label)]") : "\(file): \(name)"
    }
}
