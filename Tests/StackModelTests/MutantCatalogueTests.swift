import Foundation
import Testing

@testable import StackModel

/// The mutant catalogue (`stackplay mutate`, docs/mutate.md): every entry names a point in its
/// model file, and every point in the models is catalogued.
struct MutantCatalogueTests {
    private static let models = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/StackModel")

    private static func source(_ file: String) throws -> String {
        try String(contentsOf: models.appendingPathComponent(file), encoding: .utf8)
    }

    @Test func idsAndCodesAreUniqueAndNonZero() {
        let catalogue = Mutant.catalogue
        #expect(Set(catalogue.map(\.id)).count == catalogue.count)
        #expect(Set(catalogue.map(\.code)).count == catalogue.count)
        #expect(Set(catalogue.map(\.anchor)).count == catalogue.count)
        #expect(!catalogue.contains { $0.code == 0 })
        #expect(catalogue.allSatisfy { $0.id.hasPrefix($0.spec + ".") })
    }

    @Test func everyMutantIsUsedExactlyOnceInItsFile() throws {
        for mutant in Mutant.catalogue {
            let text = try Self.source(mutant.file)
            let uses = mutant.uses(in: text).count
            #expect(uses == 1, "\(mutant.id): \(uses) uses of .\(mutant.anchor) in \(mutant.file)")
            #expect(mutant.line(in: text) != nil, "\(mutant.id) has no line in \(mutant.file)")
        }
    }

    @Test func everyMutatedPointInTheModelsIsCatalogued() throws {
        let anchors = Set(Mutant.catalogue.map(\.anchor))
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.models.path)
            .filter { $0.hasSuffix(".swift") && !$0.contains("Mutant") }
        let pattern = /Mutant\.([a-z][A-Za-z0-9]*)\.isActive|\(\.([a-z][A-Za-z0-9]*),/
        var found = 0
        for file in files {
            for match in try Self.source(file).matches(of: pattern) {
                let name = String(match.output.1 ?? match.output.2 ?? "")
                #expect(anchors.contains(name), "\(file): .\(name) is not in Mutant.catalogue")
                found += 1
            }
        }
        #expect(found == Mutant.catalogue.count)
    }

    @Test func noMutantIsActiveWithoutTheEnvironmentVariable() {
        #expect(ProcessInfo.processInfo.environment[Mutant.environmentVariable] == nil)
        #expect(Mutant.activeCode == 0)
        #expect(Mutant.active == nil)
        #expect(Mutant.number(110.0, (.n13ThresholdUp, 140)) == 110)
        #expect(NotificationStack.swipeThreshold == 110)
    }

    @Test func theCatalogueCoversEveryComponentAndKind() {
        let specs = Set(Mutant.catalogue.map { $0.spec.prefix(1) })
        #expect(specs == ["G", "N", "S", "W"])
        #expect(Set(Mutant.catalogue.map(\.kind)) == Set(Mutant.Kind.allCases))
    }

    @Test func aLocationIsTheAnchorsLineFromItsMutantToTheLineEnd() {
        let text = "a\n    let x = Mutant.number(1, (.n13ThresholdUp, 2))\n"
        let location = Mutant.n13ThresholdUp.location(in: text)
        #expect(location?.line == 2)
        #expect(location?.startColumn == 5)
        #expect(location?.endColumn == 51)
    }

    @Test func theReadmeStatesTheCatalogueSize() throws {
        let readme = try String(
            contentsOf: Self.models.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("against each of \(Mutant.catalogue.count)\nbehavioural mutants"))
    }
}
