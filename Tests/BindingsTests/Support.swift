import Foundation
import LuaRuntime
import Testing

@testable import Bindings

/// Every Bindings test, one at a time: the resident-memory test must not see other tests' heaps.
@Suite(.serialized) enum BindingsTests {}

/// A sandboxed state with the standard modules, as the runner makes it.
func makeState(budget: LuaBudget = .standard, root: String? = nil) throws -> LuaState {
    try ScriptRunner(budget: budget).makeState(root: root)
}

/// The failure running `code` (as chunk `@test.lua`) ended in, or nil if it passed.
func runFailure(of code: String, in lua: LuaState) -> LuaFailure? {
    do {
        try lua.run(code, name: "@test.lua")
        return nil
    } catch {
        return error
    }
}

extension LuaValue {
    var boolean: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }
}

struct Boom: Error, CustomStringConvertible {
    var description: String { "the card is stuck" }
}

/// Resident set size of this process in bytes, from /proc/self/statm.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return pages * 4096
}

/// Whether this process runs under AddressSanitizer (`swift test --sanitize=address`).
let addressSanitizerIsActive = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
