import Foundation
import Testing

@testable import StackModel

/// Each mutant's `replacement` (Stryker's field): what the model does instead, in the source's terms.
struct MutantReplacementTests {
    private static let models = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/StackModel")

    @Test func everyMutantHasItsOwnReplacementAndNoOther() {
        for mutant in Mutant.catalogue {
            #expect(Mutant.replacements[mutant.id] != nil, "\(mutant.id) has no replacement")
        }
        #expect(Set(Mutant.replacements.keys) == Set(Mutant.catalogue.map(\.id)))
    }

    /// A number's replacement ends with the value its point gives the mutant: `(.anchor, 140)`.
    @Test func aNumbersReplacementIsTheValueItsPointGives() throws {
        for mutant in Mutant.catalogue where mutant.kind == .number {
            let text = try String(
                contentsOf: Self.models.appendingPathComponent(mutant.file), encoding: .utf8)
            let value = try #require(mutant.replacement.split(separator: " = ").last.map(String.init))
            #expect(
                text.contains("(.\(mutant.anchor), \(value))"),
                "\(mutant.id): '\(mutant.replacement)' is not what \(mutant.file) gives .\(mutant.anchor)")
        }
    }
}
