import Bindings
import StackModel
import TestResults
import Testing

@testable import StackplayRunner

/// `StackModel.ScreenSettingsVariant` (typed, not wired in yet) against what the runner does with
/// strings today: the same labels for every variant a matrix makes, the same messages.
@Suite struct ScreenSettingsVariantParityTests {
    @Test(arguments: [
        ["layout_direction=ltr,rtl", "device=iphone-se,ipad"],
        ["reduce_motion=on,off,yes,0", "dynamic_type=all"],
        ["width=320,320.0,0", "height=568", "layout_direction=rtl"],
        ["dynamic_type=accessibility5,large", "device=iphone-15-pro-max"],
    ])
    func `every variant of a matrix has today's label, mirrored and not`(axes: [String]) throws {
        var matrix = Matrix()
        for axis in axes { try matrix.add(axis) }
        for variant in matrix.variants + matrix.variants.map(\.mirrored) + matrix.variants.map(\.twin) {
            let typed = try ScreenSettingsVariant(variant.settings.map { ($0.key, $0.value) })
            #expect(typed.label == variant.label)
            #expect(typed.mirrored == (variant.checksMirror ? variant.isMirrored : nil))
        }
    }

    @Test(arguments: [
        ("layout_direction", "up"), ("reduce_motion", "2"), ("dynamic_type", "huge"), ("width", "x"),
        ("height", "100001"), ("mirror", "maybe"), ("colour", "red"), ("heigth", "3"),
    ])
    func `a setting that makes no sense has today's message`(key: String, value: String) {
        let today = ScreenVariant.problem(key: key, value: value)
        #expect(today != nil)
        #expect(throws: ScreenSettingsVariant.Problem(today?.message ?? "")) {
            try ScreenSettingsVariant([(key, value)])
        }
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
        #expect(
            throws: ScreenSettingsVariant.Problem(
                "device: unknown device 'ipod' (did you mean 'ipad'?) (devices: iphone-se, iphone-15, iphone-15-pro-max, ipad)"
            )
        ) { try ScreenSettingsVariant(parsing: ["device=ipod"]) }
        #expect(ScreenSettingsVariant.Device.all.map(\.name) == Matrix.devices.map(\.name))
        #expect(
            ScreenSettingsVariant.Device.all.map(\.size)
                == Matrix.devices.map { Size(width: $0.width, height: $0.height) })
    }
}
