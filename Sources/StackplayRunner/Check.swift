import Bindings
import SystemCalls
import Wording

/// `stackplay check`: compiles each script (syntax errors) and looks for calls to API names that
/// do not exist, `stackplay.scren` or `stack:tapp()`, an `expect(...)` without a matcher, a test
/// defined inside another and two tests of one name, without running anything.
enum Check {
    /// Reports each problem as `path:line: message` on stderr; true when there were none. The
    /// modules a script `require`s from its folder are read too: the names they define are known
    /// to it, and their own problems are reported once.
    static func run(_ scripts: [Script]) -> Bool {
        let api = StackModelModule.apiNames
        let options = StackModelModule.optionNames
        var problems = 0
        var queue = scripts
        var seen = Set(scripts.map { ByteKey($0.path) })
        var index = 0
        while index < queue.count {
            let script = queue[index]
            index += 1
            do {
                try ScriptRunner.compile(file: script.path)
            } catch {
                Output.err("stackplay: \(error.message)")
                problems += 1
                continue
            }
            guard let source = readFile(script.path) else { continue }
            let modules = requiredModules(of: source, root: script.root)
            for module in modules where seen.insert(ByteKey(module.path)).inserted { queue.append(module) }
            var defined = Set<String>()
            for module in modules {
                if let text = readFile(module.path) {
                    defined.formUnion(LuaScan.definedNames(LuaScan.tokenize(text)))
                }
            }
            let found =
                LuaScan.unknownNames(in: source, fields: api.fields, methods: api.methods, defined: defined)
                + LuaScan.unknownOptions(in: source, options: options, defined: defined)
                + LuaScan.testProblems(in: source)
            // By line; on one line, in the order they were found.
            let ordered = found.enumerated().sorted {
                (lineNumber($0.element), $0.offset) < (lineNumber($1.element), $1.offset)
            }.map(\.element)
            for problem in ordered {
                Output.err("stackplay: \(script.path):\(problem)")
                problems += 1
            }
        }
        Output.out("\(queue.count) checked, \(problems) problem\(problems == 1 ? "" : "s")")
        return problems == 0
    }

    /// The modules `source` requires that are files under `root` (as the sandbox's `require`
    /// finds them by its default path: `helpers.x` is `root/helpers/x.lua`, else
    /// `root/helpers/x/init.lua`), and the modules those require.
    static func requiredModules(of source: String, root: String) -> [Script] {
        var found: [Script] = []
        var pending = LuaScan.requires(LuaScan.tokenize(source))
        var names = Set<ByteKey>()
        while let name = pending.popLast() {
            guard names.insert(ByteKey(name)).inserted, !name.isEmpty, !name.hasPrefix("/"),
                !name.contains("..")
            else {
                continue
            }
            let base = (root.hasSuffix("/") ? root : root + "/") + name.replacing(".", with: "/")
            guard
                let path = [base + ".lua", base + "/init.lua"].first(where: {
                    Discovery.kind(of: $0) == .file
                }),
                let text = readFile(path)
            else { continue }
            found.append(Script(path: path, root: root))
            pending += LuaScan.requires(LuaScan.tokenize(text))
        }
        return found
    }

    private static func lineNumber(_ problem: String) -> Int { Int(problem.prefix { $0.isNumber }) ?? 0 }

    static func readFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard case .success(let bytes) = Syscall.readAll(descriptor, limit: Int.max) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

#if canImport(Glibc)
    import Glibc
#endif
