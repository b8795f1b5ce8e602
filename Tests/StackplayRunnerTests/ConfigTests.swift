import Bindings
import Foundation
import Testing

@testable import StackplayRunner

/// `.stackplay.lua`, read from a folder made for each test.
@Suite struct ConfigUnitTests {
    func load(_ text: String) throws -> Result<Config, Config.Invalid> {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try text.write(to: folder.appendingPathComponent(".stackplay.lua"), atomically: true, encoding: .utf8)
        do { return .success(try Config.load(in: folder.path)) } catch { return .failure(error) }
    }

    @Test func `every key is read and flags win over it`() throws {
        let config = try load(
            """
            return { paths = { "scripts" }, cpu_budget = 2, memory_budget = 64, reporter = "tap",
              jobs = 3, junit = "out/j.xml", seed = 9,
              screen = { width = 320, height = 568, layout_direction = "rtl", reduce_motion = true,
                         dynamic_type = "AX5" } }
            """
        ).get()
        #expect(config.paths == ["scripts"])
        #expect(config.screen.width == 320 && config.screen.height == 568)
        #expect(config.screen.layoutDirection == .rightToLeft)
        #expect(config.screen.reduceMotion)
        var options = try Options.parse(["--jobs", "1", "--seed", "4"])
        config.apply(to: &options)
        #expect(options.paths == ["scripts"])
        #expect(options.jobs == 1)
        #expect(options.seed == 4)
        #expect(options.format == .tap)
        #expect(options.junit == "out/j.xml")
        #expect(options.budget.cpuSeconds == 2)
        var plain = try Options.parse([])
        config.apply(to: &plain)
        #expect(plain.seed == 9)
        #expect(plain.jobs == 3)
    }

    @Test func `no file is an empty config`() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Config.load(in: folder.path).paths.isEmpty)
    }

    @Test(arguments: [
        ("return { jbos = 2 }", "unknown key 'jbos' (did you mean 'jobs'?)"),
        ("return { jobs = 1e300 }", "'jobs' must be"),
        ("return { seed = -1 }", "'seed' must be a whole number >= 0"),
        ("return { screen = { layout_directon = 'rtl' } }", "unknown key 'screen.layout_directon'"),
        ("return 3", "must return a table"),
        (
            "return { cpu_budget = 1e308 }",
            "'cpu_budget' must be a positive number of seconds up to 1000000, got 1e+308"
        ),
        (
            "return { cpu_budget = 0/0 }",
            "'cpu_budget' must be a positive number of seconds up to 1000000, got nan"
        ),
        ("return { seed = 2^63 }", "'seed' must be a whole number >= 0, got 9.223372036854776e+18"),
        ("return { seed = 0.5 }", "'seed' must be a whole number >= 0, got 0.5"),
        (
            "return { jobs = math.mininteger }",
            "'jobs' must be a whole number from 1 to 1024, got -9223372036854775808"
        ),
    ])
    func `bad configs name the key`(text: String, message: String) throws {
        guard case .failure(let error) = try load(text) else {
            Issue.record("no error for \(text)")
            return
        }
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test func `every key the config knows is read, none is unknown`() throws {
        for key in Config.keys {
            guard case .failure(let error) = try load("return { \(key) = print }") else {
                Issue.record("a function is accepted as '\(key)'")
                continue
            }
            #expect(error.message.hasPrefix(".stackplay.lua: '\(key)'"), "\(error.message)")
        }
    }

    @Test func `a whole-number config key takes a float with an integer value`() throws {
        var options = try Options.parse([])
        try load("return { jobs = 2.0, seed = 7.0 }").get().apply(to: &options)
        #expect(options.jobs == 2 && options.seed == 7)
    }
}
