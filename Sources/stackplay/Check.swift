import Bindings

/// `stackplay check`: compiles each script (syntax errors) and looks for calls to API names that
/// do not exist, `stackplay.scren` or `stack:tapp()`, without running anything.
enum Check {
    /// Reports each problem as `path:line: message` on stderr; true when there were none.
    static func run(_ scripts: [Script]) -> Bool {
        let api = StackModelModule.apiNames
        var problems = 0
        for script in scripts {
            do {
                let lua = try LuaState(budget: .standard)
                try lua.compile(file: script.path)
            } catch {
                Output.err("stackplay: \(error.message)")
                problems += 1
                continue
            }
            guard let source = readFile(script.path) else { continue }
            for problem in LuaScan.unknownNames(in: source, fields: api.fields, methods: api.methods) {
                Output.err("stackplay: \(script.path):\(problem)")
                problems += 1
            }
        }
        Output.out("\(scripts.count) checked, \(problems) problem\(problems == 1 ? "" : "s")")
        return problems == 0
    }

    static func readFile(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

#if canImport(Glibc)
    import Glibc
#endif
