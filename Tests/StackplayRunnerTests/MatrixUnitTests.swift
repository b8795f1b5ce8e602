import Bindings
import TestResults
import Testing

@testable import StackplayRunner

@Suite struct MatrixUnitTests {
    @Test func `combinations vary the last axis fastest and devices set both sizes`() throws {
        var matrix = Matrix()
        try matrix.add("layout_direction=ltr,rtl")
        try matrix.add("device=iphone-se,ipad")
        let labels = matrix.variants.map(\.label)
        #expect(
            labels == [
                "ltr, iphone-se 375 × 667", "ltr, ipad 820 × 1180", "rtl, iphone-se 375 × 667",
                "rtl, ipad 820 × 1180",
            ])
        var all = Matrix()
        try all.add("dynamic_type=all")
        #expect(all.variants.count == 12)
    }

    @Test func `a test's copies are named by their variant and keep their base name`() throws {
        var matrix = Matrix()
        try matrix.add("reduce_motion=on,off")
        let test = TestCase(
            file: "f.lua", root: nil, name: "t", position: "f.lua:1", index: 1, skipped: false)
        let copies = matrix.apply(to: [test])
        #expect(copies.map(\.name) == ["t [reduce_motion=on]", "t [reduce_motion=off]"])
        #expect(copies.allSatisfy { $0.baseName == "t" })
        #expect(Matrix().apply(to: [test]) == [test])
    }

    @Test func `an axis given twice is refused`() throws {
        var matrix = Matrix()
        try matrix.add("width=320")
        #expect(throws: VariantError.self) { try matrix.add("width=400") }
    }

    @Test func `a variant over the defaults sets only its keys`() throws {
        let variant = try ScreenVariant(validating: [("layout_direction", "rtl"), ("dynamic_type", "ax3")])
        let applied = variant.applied(to: ScreenDefaults(width: 320))
        #expect(applied.layoutDirection == .rightToLeft)
        #expect(applied.dynamicTypeSize == .accessibility3)
        #expect(applied.width == 320)
        #expect(applied.height == ScreenDefaults().height)
        #expect(!applied.mirror)
        #expect(variant.label == "rtl, AX3")
        #expect(variant.mirrored.applied(to: ScreenDefaults()).mirror)
    }
}
