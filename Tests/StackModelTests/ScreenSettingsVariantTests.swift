import Testing

@testable import StackModel

@Suite struct ScreenSettingsVariantTests {
    typealias V = ScreenSettingsVariant

    @Test func `settings parse to typed values in the order given`() throws {
        let v = try V(parsing: [
            "dynamic_type=accessibility5", "layout_direction=rtl", "reduce_motion=yes", "width=320",
        ])
        #expect(v.layoutDirection == .rightToLeft)
        #expect(v.dynamicType == .accessibility5)
        #expect(v.reduceMotion?.value == true)
        #expect(v.width?.value == 320 && v.height == nil)
        #expect(v.order == [.dynamicType, .layoutDirection, .reduceMotion, .width])
        #expect(v.size(over: Size(width: 390, height: 844)) == Size(width: 320, height: 844))
        #expect(v.mirrored == nil)
    }

    @Test func `labels are today's: the order given, sizes last, as written, then mirrored`() throws {
        #expect(try V(parsing: []).label == "")
        #expect(
            try V(parsing: ["reduce_motion=on", "layout_direction=rtl"]).label == "reduce_motion=on, rtl")
        #expect(try V(parsing: ["dynamic_type=accessibility5"]).label == "AX5")
        #expect(try V(parsing: ["height=568", "layout_direction=ltr"]).label == "ltr, - × 568")
        #expect(
            try V(parsing: ["width=320.0", "reduce_motion=TRUE"]).label == "reduce_motion=TRUE, 320.0 × -")
        #expect(try V(parsing: ["device=iphone-se", "dynamic_type=AX3"]).label == "AX3, iphone-se 375 × 667")
        #expect(try V(parsing: ["layout_direction=rtl", "mirror=on"]).label == "rtl, mirrored")
        let twin = try V(parsing: ["layout_direction=rtl", "mirror=off"])
        #expect(twin.label == "rtl" && twin.mirrored == false)
    }

    @Test func `a device sets both sides, and a later setting wins`() throws {
        let v = try V(parsing: ["device=ipad", "width=700"])
        #expect(v.size(over: Size(width: 1, height: 1)) == Size(width: 700, height: 1180))
        #expect(v.label == "700 × 1180")
        #expect(V.Device.all.map(\.name) == ["iphone-se", "iphone-15", "iphone-15-pro-max", "ipad"])
    }

    @Test(arguments: [
        ("layout_direction=rlt", "layout_direction: 'ltr' or 'rtl' expected, got 'rlt'"),
        ("reduce_motion=maybe", "reduce_motion: 'on', 'off', 'true' or 'false' expected, got 'maybe'"),
        ("dynamic_type=AX9", "dynamic_type: unknown size 'AX9' (did you mean 'AX1'?)"),
        ("width=-1", "width: a number of points from 0 to 100000 expected, got '-1'"),
        ("height=1e6", "height: a number of points from 0 to 100000 expected, got '1e6'"),
        ("width=nan", "width: a number of points from 0 to 100000 expected, got 'nan'"),
        ("mirror=sideways", "mirror: 'on' or 'off' expected, got 'sideways'"),
        (
            "layout_directon=rtl",
            "unknown matrix key 'layout_directon' (did you mean 'layout_direction'?) (keys: layout_direction, reduce_motion, dynamic_type, width, height, device)"
        ),
        (
            "device=iphone-16",
            "device: unknown device 'iphone-16' (did you mean 'iphone-15'?) (devices: iphone-se, iphone-15, iphone-15-pro-max, ipad)"
        ),
        ("rtl", "a matrix setting is KEY=VALUE (like layout_direction=rtl), not 'rtl'"),
    ])
    func `a setting that makes no sense is named with what was expected`(setting: String, message: String) {
        #expect(throws: V.Problem(message)) { try V(parsing: [setting]) }
    }
}
