import Bindings
import Foundation
import StackModel
import TestResults
import Testing
import Traces

@testable import StackplayRunner

/// The typed variant a matrix makes: its labels (what reports, filters and trace names show), its
/// messages, and its settings read back through the wire and `--json`.
@Suite struct ScreenVariantTests {
    @Test(arguments: [
        (
            ["layout_direction=ltr,rtl", "device=iphone-se,ipad"],
            [
                "ltr, iphone-se 375 × 667", "ltr, ipad 820 × 1180", "rtl, iphone-se 375 × 667",
                "rtl, ipad 820 × 1180",
            ]
        ),
        (["reduce_motion=on,yes"], ["reduce_motion=on", "reduce_motion=yes"]),
        (["width=320,320.5", "height=568"], ["320 × 568", "320.5 × 568"]),
        (["dynamic_type=accessibility5,large", "layout_direction=rtl"], ["AX5, rtl", "large, rtl"]),
    ])
    func `every variant of a matrix has its label, mirrored and not`(axes: [String], labels: [String]) throws
    {
        var matrix = Matrix()
        for axis in axes { try matrix.add(axis) }
        #expect(matrix.variants.map(\.label) == labels)
        #expect(matrix.variants.map(\.mirrored.label) == labels.map { $0 + ", mirrored" })
        #expect(matrix.variants.map(\.twin.label) == labels)
        for variant in matrix.variants + matrix.variants.map(\.mirrored) + matrix.variants.map(\.twin) {
            // What the wire and --json carry reads back as the same variant.
            #expect(try ScreenVariant(validating: variant.settings) == variant)
            let json = JSONValueEncoder().json(variant)
            #expect(try JSONValueDecoder().decode(ScreenVariant.self, from: json) == variant)
        }
    }

    @Test(arguments: [
        ("layout_direction", "up", "layout_direction: 'ltr' or 'rtl' expected, got 'up'"),
        ("reduce_motion", "2", "reduce_motion: 'on', 'off', 'true' or 'false' expected, got '2'"),
        ("dynamic_type", "huge", "dynamic_type: unknown size 'huge'"),
        ("width", "x", "width: a number of points from 0 to 100000 expected, got 'x'"),
        ("height", "100001", "height: a number of points from 0 to 100000 expected, got '100001'"),
        ("mirror", "maybe", "mirror: 'on' or 'off' expected, got 'maybe'"),
        ("colour", "red", "unknown matrix key 'colour' (keys: layout_direction"),
        ("heigth", "3", "unknown matrix key 'heigth' (did you mean 'height'?)"),
    ])
    func `a setting that makes no sense is named with what it takes`(
        key: String, value: String, message: String
    ) {
        #expect {
            _ = try ScreenVariant(validating: [(key, value)])
        } throws: { error in
            (error as? ScreenSettingsVariant.Problem)?.message.hasPrefix(message) == true
        }
    }

    @Test func `a variant the wire cannot read is a decoding error, never a force unwrap`() throws {
        let bad = try JSONParser.parse(#"{"settings": [{"key": "layout_direction", "value": "sideways"}]}"#)
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(ScreenVariant.self, from: bad) }
    }

    @Test func `an unknown device has the matrix's message`() {
        var matrix = Matrix()
        #expect(
            throws: VariantError(
                "device: unknown device 'ipod' (did you mean 'ipad'?) (devices: iphone-se, iphone-15, iphone-15-pro-max, ipad)"
            )
        ) {
            try matrix.add("device=ipod")
        }
    }
}
