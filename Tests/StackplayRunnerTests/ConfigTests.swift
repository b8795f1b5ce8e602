import Bindings
import Foundation
import Testing

@testable import StackplayRunner

/// `.stackplay.lua`, read from a folder made for each test.
@Suite struct ConfigUnitTests {
    func load(_ text: String) throws -> Result<Config, Config.Invalid> {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString)")
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
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString)")
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
    ])
    func `bad configs name the key`(text: String, message: String) throws {
        guard case .failure(let error) = try load(text) else {
            Issue.record("no error for \(text)")
            return
        }
        #expect(error.message.contains(message), "\(error.message)")
    }
}
