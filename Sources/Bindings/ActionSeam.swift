import LuaRuntime
import Traces

/// Where a trace's actions come from: for each event a recorder stores, the script's call that is
/// running (``LuaCallSite``): its method, the script's file and line, and that line's text. The
/// inputs one call made share its serial, so the recorder groups them under one action line.
final class ActionSeam {
    /// Each script file's lines, read once (a file that cannot be read has none).
    private var sources: [String: [Substring]] = [:]

    /// A recorder's source of calls; each recorder has its own cache of the files' lines.
    static func calls() -> () -> TraceCall? {
        let seam = ActionSeam()
        return { seam.current() }
    }

    /// The call the last event came from: the next events of the same call reuse it.
    private var last: (site: LuaCallSite, call: TraceCall)?

    func current() -> TraceCall? {
        let prefix = PreludeModule.internalPrefix
        guard let site = LuaCallSite.running(skippingPrefix: prefix, unless: last?.site) else { return nil }
        if let last, last.site == site { return last.call }
        let call = TraceCall(
            serial: site.serial, method: site.function ?? "call", file: site.file, line: site.line,
            source: text(of: site.file, line: site.line))
        last = (site, call)
        return call
    }

    /// Line `line` of `file`, without its indentation and trailing blanks; "" when unknown.
    func text(of file: String, line: Int) -> String {
        if sources[file] == nil {
            let text = (try? TraceFile.read(file)) ?? ""
            sources[file] = text.split(separator: "\n", omittingEmptySubsequences: false)
        }
        guard let lines = sources[file], lines.indices.contains(line - 1) else { return "" }
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        var text = lines[line - 1].drop(while: isBlank)
        while let last = text.last, isBlank(last) { text = text.dropLast() }
        return String(text)
    }
}
