import Foundation
import Testing

/// Dependencies point one way (issue 42): the runner runs Lua only through Bindings, and the
/// worker pool knows no Lua and no runner. Read from the source tree, line by line, so that an
/// import added anywhere in those folders fails here with its file and line.
@Suite struct LayeringTests {
    /// The package's root: three folders above this file (Tests/StackplayRunnerTests/this.swift).
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The Lua modules: LuaRuntime and the C targets under it (CLua, CLuaRuntime, and whatever
    /// `CLua...` the C side is split into).
    static func isLua(_ module: String) -> Bool { module == "LuaRuntime" || module.hasPrefix("CLua") }

    /// `path:line: text` of every line of the Swift files under `folder` that imports a module
    /// `matching` (plainly, `@testable`, `@_exported` or as `import struct Module.Name`).
    static func imports(under folder: String, matching: (String) -> Bool) throws -> [String] {
        let base = root.appendingPathComponent(folder)
        let enumerator = try #require(FileManager.default.enumerator(atPath: base.path))
        var found: [String] = []
        for case let relative as String in enumerator where relative.hasSuffix(".swift") {
            let text = try String(contentsOf: base.appendingPathComponent(relative), encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
                guard words.first == "import", let last = words.last else { continue }
                let module = last.split(separator: ".").first.map(String.init) ?? ""
                if matching(module) { found.append("\(folder)/\(relative):\(index + 1): \(line)") }
            }
        }
        return found.sorted()
    }

    @Test func theRunnerImportsNoLuaRuntime() throws {
        let found = try Self.imports(under: "Sources/StackplayRunner", matching: Self.isLua)
        #expect(
            found.isEmpty, "the runner runs Lua through Bindings only (RunnerVocabulary.swift):\n\(found)")
    }

    @Test func theWorkerPoolImportsNoLuaAndNoRunner() throws {
        let found = try Self.imports(under: "Sources/Workers") {
            Self.isLua($0) || $0 == "Bindings" || $0 == "StackplayRunner"
        }
        #expect(
            found.isEmpty, "the pool gets what it runs and reports as closures (WorkerPool.Hooks):\n\(found)")
    }

    @Test func bindingsReExportsNoLuaRuntime() throws {
        let base = Self.root.appendingPathComponent("Sources/Bindings")
        let files = try FileManager.default.contentsOfDirectory(atPath: base.path).filter {
            $0.hasSuffix(".swift")
        }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("@_exported"), "Sources/Bindings/\(file) re-exports a module")
        }
    }

    /// The reader above finds what it looks for: an import of each kind, and not a mention.
    @Test func theReaderFindsImports() throws {
        let found = try Self.imports(under: "Sources/Workers") { $0 == "SystemCalls" }
        #expect(found.contains { $0.hasSuffix(": import SystemCalls") })
        #expect(try Self.imports(under: "Sources/StackplayRunner") { $0 == "Workers" }.count > 1)
        #expect(try Self.imports(under: "Sources/Bindings", matching: Self.isLua).count > 1)
        #expect(Self.isLua("CLuaSandbox") && !Self.isLua("Bindings"))
    }
}
