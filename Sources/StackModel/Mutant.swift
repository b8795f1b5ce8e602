#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A behavioural mutant (`stackplay mutate`, docs/mutate.md): one small change to one rule or number
/// of a model, named by the SPEC id it breaks.
///
/// A mutant is switched on for a whole process, before any model is used, by the environment
/// variable `STACKPLAY_MUTANT` (its id); the process-wide setting is read-only after that. Each
/// mutated point in the models asks `Mutant.x.isActive`, one integer compare; a number the seed gives
/// goes through ``Mutant/number(_:_:)`` once, when its `static let` is first read, so that with no
/// mutant active every value is the seed's.
public struct Mutant: Sendable, Hashable, CustomStringConvertible {
    /// What a mutant changes.
    public enum Kind: String, Sendable, CaseIterable {
        case number, comparison, clamp, gate, direction, accessibility
    }

    /// A small whole number, unique in the catalogue, that the mutated point compares with.
    public let code: Int
    /// The stable id: `N13.threshold+`.
    public let id: String
    /// The SPEC id it breaks: `N13`.
    public let spec: String
    public let kind: Kind
    /// The model file it applies in, relative to Sources/StackModel: `NotificationStack.swift`.
    public let file: String
    /// The name of the mutant's `static let`, written `Mutant.<anchor>` at the mutated point: the
    /// report finds its line and columns there.
    public let anchor: String
    /// One line: what the mutant does.
    public let summary: String

    public init(
        _ code: Int, _ id: String, _ spec: String, _ kind: Kind, _ file: String, _ anchor: String,
        _ summary: String
    ) {
        self.code = code
        self.id = id
        self.spec = spec
        self.kind = kind
        self.file = file
        self.anchor = anchor
        self.summary = summary
    }

    public var description: String { id }

    /// Whether this mutant is the process's active one. The active mutant's first check also
    /// says it was reached (``reachedVariable``): a mutant no test reached changed nothing.
    @inlinable public var isActive: Bool {
        guard Mutant.activeCode == code else { return false }
        _ = Mutant.reached
        return true
    }

    /// The environment variable naming the file that the active mutant's first check creates,
    /// so that `stackplay mutate` tells a mutant no test reached (Stryker's `NoCoverage`) from one
    /// that every test that reached it let survive.
    public static let reachedVariable = "STACKPLAY_MUTANT_REACHED"

    /// Creates ``reachedVariable``'s file, once a process (the first time it is read).
    @usableFromInline static let reached: Bool = {
        guard let path = getenv(reachedVariable) else { return false }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        if descriptor >= 0 { close(descriptor) }
        return descriptor >= 0
    }()

    /// The code of the active mutant; 0 when none is (the environment variable is unset, empty, or
    /// names no mutant). Read once, on first use.
    public static let activeCode: Int = {
        guard let raw = getenv(environmentVariable) else { return 0 }
        let id = String(cString: raw)
        return catalogue.first { $0.id == id }?.code ?? 0
    }()

    /// The environment variable a mutant's worker gets.
    public static let environmentVariable = "STACKPLAY_MUTANT"

    /// The active mutant, if any.
    public static var active: Mutant? { catalogue.first { $0.code == activeCode } }

    /// `seed`, or the value the active mutant gives it: `Mutant.number(110, (.up, 140), (.down, 80))`.
    public static func number<Value>(_ seed: Value, _ mutants: (Mutant, Value)...) -> Value {
        guard activeCode != 0 else { return seed }
        return mutants.first { $0.0.isActive }?.1 ?? seed
    }

    /// Every mutant, component by component: a component's own list lives beside it
    /// (`NotificationStack+Mutants.swift`), the shared ones in `Mutant+Shared.swift`.
    public static let catalogue: [Mutant] = shared + notificationStack + stickyStackedCards + walletCardStack
}

extension Mutant {
    /// Where a mutant applies in its file's text: 1-based, the end column one past the last character.
    public struct Location: Sendable, Hashable {
        public let line: Int
        public let startColumn: Int
        public let endColumn: Int
    }

    /// The line of `text` (its model file's source) that uses `.anchor`; nil when none does.
    public func line(in text: String) -> Int? { location(in: text)?.line }

    /// The mutated point in `text`: the line that uses `.anchor`, from its first non-blank
    /// character to its end.
    public func location(in text: String) -> Location? { uses(in: text).first }

    /// Every line of `text` that uses `.anchor` (the catalogue's tests ask for exactly one).
    public func uses(in text: String) -> [Location] {
        let needle = "." + anchor
        var found: [Location] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var rest = line[...]
            while let range = rest.firstRange(of: needle) {
                rest = line[range.upperBound...]
                // `.n13Threshold` must not match `.n13ThresholdUp`.
                if let next = rest.first, next.isLetter || next.isNumber { continue }
                let leading = line.prefix { $0 == " " }.count
                found.append(Location(line: index + 1, startColumn: leading + 1, endColumn: line.count + 1))
            }
        }
        return found
    }
}

extension Mutant {
    /// The package's folder where this binary was built (the report's `projectRoot`).
    public static let packageDirectory: String = {
        let file = "\(#filePath)"
        guard let range = file.firstRange(of: "/" + sourceFolder) else { return "." }
        return String(file[..<range.lowerBound])
    }()

    /// Where the model files are in the package, and on this machine (their text goes into reports).
    public static let sourceFolder = "Sources/StackModel/"
    public static var sourceDirectory: String { packageDirectory + "/" + sourceFolder }
}
