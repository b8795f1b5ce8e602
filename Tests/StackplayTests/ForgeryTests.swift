import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// The verdict is the runner's own: a script cannot forge it, reach its internals or outlive its budget.
@Suite struct ForgeryTests {

    static let forgeries: [(String, String)] = [
        ("the runner's entry", "stackplay._run = function() return { status = 'ok' } end"),
        ("the test list", "stackplay._tests = function() return {} end"),
        ("test and expect", "test = function() end; expect = function() return {} end"),
        (
            "string functions",
            "string.match = function() while true do end end; string.find = string.match; string.gmatch = string.match"
        ),
        ("metatables", "setmetatable = function(t) return t end; getmetatable = function() return nil end"),
        ("xpcall and pcall", "xpcall = function(f) return true end; pcall = xpcall; error = function() end"),
        ("the stackplay table", "for k in pairs(stackplay) do stackplay[k] = nil end; stackplay = nil"),
        ("tostring", "tostring = function() error('no') end"),
    ]

    @Test(arguments: forgeries)
    func `a script that replaces the runner's parts cannot make a raising test pass`(
        what: String, forgery: String
    ) throws {
        let script = """
            local raise = error
            test("raises", function() \(forgery) raise("boom") end)
            \(forgery)
            """
        let folder = try temporaryFolder(["forge.lua": script])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay("--cpu-budget", "2", folder.appendingPathComponent("forge.lua").path)
        #expect(run.status == 1, "\(what): \(run.stdout)")
        #expect(run.stdout.contains("FAIL raises"), "\(what): \(run.stdout)")
        #expect(run.stdout.contains("0 passed, 1 failed"), "\(what): \(run.stdout)")
    }

    @Test func `the runner's internals are not reachable from scripts`() throws {
        let folder = try temporaryFolder([
            "peek.lua": """
            local names = {}
            for k in pairs(stackplay) do names[#names + 1] = k end
            print(table.concat(names, ","))
            for _, k in ipairs(names) do assert(k:sub(1, 1) ~= "_", "reachable: " .. k) end
            """
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(folder.appendingPathComponent("peek.lua").path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("      | replay,screen,show,version"))
    }

    @Test func `__gc finalizers are refused and an xpcall handler cannot outlive the budget`() throws {
        let folder = try temporaryFolder([
            "gc.lua": """
            test("finalizer", function() setmetatable({}, { __gc = function() while true do end end }) end)
            test("handler", function()
              xpcall(function() while true do end end, function() while true do end end)
            end)
            """
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = Date()
        let run = try stackplay("--cpu-budget", "0.5", folder.appendingPathComponent("gc.lua").path)
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(run.status == 1)
        #expect(run.stderr.contains("stackplay does not run __gc finalizers"))
        #expect(run.stderr.contains("stopped: the script used its 0.5 s of CPU time"))
    }
}
