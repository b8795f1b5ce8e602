import Traces

#if canImport(Glibc)
    import Glibc
#endif

/// A file a run writes: a report the user named (`--junit FILE`, `--json=FILE`, `mutate
/// --json=FILE`, `render -o`, `view -o`) or one in a folder the user named (`--trace`,
/// `--artifacts`, `--suggest`, `explore --out`). Every output goes through here, and so through
/// one rule (docs/runner.md, "Outputs"): it never writes over a file that is one of the run's
/// inputs (a script, the config, a report or trace it reads), nor over a file that is not a report
/// of its own kind that stackplay wrote (``Kind/recognizes(_:)``); a new file, an empty one, or a
/// FIFO or device the user named (`/dev/stdout`) is written. A FIFO is opened without blocking
/// (``TraceFile/write(_:to:)``): one with no reader is an error, never a hang.
struct ReportOutput {
    /// What is written, and how a file that stackplay wrote of that kind begins.
    enum Kind {
        case junit, json, mutationJSON, trace, svg, page, filmstrip, suggestion, reproducer

        /// How messages name it: "a JUnit report".
        var noun: String {
            switch self {
            case .junit: "a JUnit report"
            case .json: "a JSON report"
            case .mutationJSON: "a mutation report"
            case .trace: "a trace"
            case .svg: "an SVG picture"
            case .page: "a report page"
            case .filmstrip: "a filmstrip page"
            case .suggestion: "a test that mutate --suggest wrote"
            case .reproducer: "a reproducer that explore wrote"
            }
        }

        /// Whether `head`, the first bytes of a file, are those of this kind as stackplay writes it.
        func recognizes(_ head: String) -> Bool {
            switch self {
            case .junit:
                head.hasPrefix("<?xml") && head.contains("<testsuites name=\"stackplay\"")
            case .json: head.hasPrefix("{\"format_version\":")
            case .mutationJSON: head.hasPrefix("{\"schemaVersion\":")
            case .trace: head.hasPrefix("{\"format\":\"\(TraceFormat.name)\"")
            case .svg:
                head.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\"")
                    && head.contains("<rect class=\"screen\"")
            case .page: head.hasPrefix("<!DOCTYPE html>") && head.contains("<title>stackplay")
            case .filmstrip: head.hasPrefix("<!doctype html><meta charset=\"utf-8\"><title>")
            case .suggestion: head.hasPrefix("-- Written by `stackplay mutate --suggest`")
            case .reproducer: head.hasPrefix("-- Found by `")
            }
        }
    }

    /// How messages name the output: `--junit`, `--trace out`.
    let flag: String
    let path: String
    let kind: Kind
    /// A file in a folder the user named (`--trace DIR`): a link there is replaced, never
    /// followed (``TraceFile/replace(_:with:)``); a file the user named is written through a link.
    var inFolder = false

    struct Refusal: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// A file by device and inode: the same file by any path (a link, `./x`, `../d/x`).
    struct FileID: Hashable {
        let device: UInt64
        let inode: UInt64

        init?(_ path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// The files the run reads, each with what it is ("a Lua script", "the config file").
    nonisolated(unsafe) private static var inputs: [FileID: String] = [:]

    /// Records that the run reads `path`, which is `role`: no output may write over it.
    static func addInput(_ path: String, as role: String) {
        if let id = FileID(path), inputs[id] == nil { inputs[id] = role }
    }

    /// Why writing `path` would destroy something, or nil when it may be written.
    func refusal() -> Refusal? {
        var info = stat()
        guard (inFolder ? lstat(path, &info) : stat(path, &info)) == 0 else { return nil }
        let what: String
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            if let id = FileID(path), let role = Self.inputs[id] {
                what = role
            } else if info.st_size == 0 {
                return nil
            } else {
                let head = Self.head(of: path)
                if let head, kind.recognizes(head) { return nil }
                what =
                    path.hasSuffix(".lua") || head.map(Self.looksLikeLua) == true
                    ? "a Lua script" : "a file that is not \(kind.noun) stackplay wrote"
            }
        case S_IFDIR: what = "a folder"
        case S_IFLNK: return nil
        // A FIFO, a device or a socket the user named is written in place, never replaced.
        default: return nil
        }
        return Refusal(message: "\(flag) \(path) would overwrite \(what)")
    }

    /// Writes `text`, after ``refusal()`` (its folders made first).
    func write(_ text: String) throws(TraceFile.Failure) {
        if let refusal = refusal() { throw TraceFile.Failure(message: refusal.message) }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try TraceFile.makeDirectory(String(path[..<slash]))
        }
        if inFolder {
            try TraceFile.replace(path, with: text)
        } else {
            try TraceFile.write(text, to: path)
        }
    }

    /// Writes `text`; an error goes to stderr (`stackplay: ...`) and makes it false.
    @discardableResult
    func written(_ text: String) -> Bool {
        do {
            try write(text)
            return true
        } catch {
            Output.err("stackplay: \(error.message)")
            return false
        }
    }

    /// The first refusal among `outputs`, as a usage error the caller reports (exit 64) before
    /// anything runs.
    static func check(_ outputs: [ReportOutput]) -> String? {
        outputs.lazy.compactMap { $0.refusal()?.message }.first
    }

    /// The first 4 KiB of the regular file at `path`, nil when it cannot be read.
    private static func head(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { return nil }
        var text = String(decoding: bytes[..<count], as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return text
    }

    /// Whether `head` reads as Lua source: a comment or a `local`, `function`, `return` or
    /// `require` at the start of a line.
    private static func looksLikeLua(_ head: String) -> Bool {
        head.split(separator: "\n").prefix(40).contains { line in
            let line = line.drop { $0 == " " || $0 == "\t" }
            return ["--", "local ", "function ", "return ", "require"].contains { line.hasPrefix($0) }
        }
    }
}

extension ReportOutput {
    /// The reports a run's options name, one file each (`--junit`, `--json=FILE`, `mutate
    /// --json=FILE`, `render -o`, `view -o`, `--artifacts`' page): checked before anything runs.
    static func named(by options: Options) -> [ReportOutput] {
        var outputs: [ReportOutput] = []
        if let path = options.junit {
            outputs.append(ReportOutput(flag: "--junit", path: path, kind: .junit))
        }
        if let path = options.jsonFile {
            let kind: Kind = options.action == .mutate ? .mutationJSON : .json
            outputs.append(ReportOutput(flag: "--json", path: path, kind: kind))
        }
        if let path = options.outputFile {
            let kind: Kind = options.action == .render ? .svg : .page
            outputs.append(ReportOutput(flag: "-o", path: path, kind: kind))
        }
        if let folder = options.artifactsDirectory, options.action != .explore {
            let page = options.action == .mutate ? "/mutation.html" : "/report.html"
            outputs.append(ReportOutput(flag: "--artifacts", path: folder + page, kind: .page))
        }
        if let path = options.htmlFile {
            outputs.append(ReportOutput(flag: "--html", path: path, kind: .page))
        }
        return outputs
    }

    /// Records `paths` as inputs of `role`, then checks the reports `options` name: the usage
    /// error to report, or nil.
    static func check(_ options: Options, inputs paths: [String], as role: String) -> String? {
        for path in paths { addInput(path, as: role) }
        if let config = options.configFile { addInput(config, as: "the config file") }
        if let timings = options.shardTimings { addInput(timings, as: "the --shard-timings file") }
        return check(named(by: options))
    }
}
