import StackModel
import Traces

/// `stackplay mutate --html FILE` and `--artifacts DIR` (`DIR/mutation.html`): the mutation report
/// as one self-contained page (no script, no outside file): the score as Stryker counts it, then
/// the mutants by SPEC id, each with its status and what it changes (in words and in the source's
/// terms), a survivor with the test `--suggest` wrote for it beside it, and a killed mutant with a
/// link into the trace viewer of the test that killed it (with `--artifacts`, each mutant's run
/// writes its own `report.html` under `DIR/mutants/<id>/`, as a run's `--artifacts` does).
extension MutationReport {
    /// Writes the reports the options name: `--json=FILE`, `--junit FILE`, `--html FILE` and the
    /// `--artifacts` page. False when one could not be written (said on stderr).
    func written(_ options: Options) -> Bool {
        var written = true
        if let path = options.jsonFile {
            written = ReportOutput(flag: "--json", path: path, kind: .mutationJSON).written(stryker.text)
        }
        if let path = options.junit {
            written = ReportOutput(flag: "--junit", path: path, kind: .junit).written(junit) && written
        }
        return MutationPage.write(self, options) && written
    }
}

enum MutationPage {
    /// Where a mutant's run writes its trace viewer under the artifacts folder.
    static func traceFolder(_ artifacts: String, _ mutant: Mutant) -> String {
        "\(artifacts)/mutants/\(mutant.id)"
    }

    /// Writes the page where the options say; true when there was nothing to write or it was written.
    static func write(_ report: MutationReport, _ options: Options) -> Bool {
        var ok = true
        if let folder = options.artifactsDirectory {
            let path = folder + "/mutation.html"
            let page = html(report, artifacts: folder, linkPrefix: "", suggestions: options.suggestDirectory)
            do {
                try TraceFile.makeDirectory(folder)
                try ReportOutput(flag: "--artifacts", path: path, kind: .page, inFolder: true).write(page)
                Output.err("stackplay: wrote \(path)")
            } catch {
                Output.err("stackplay: \(error.message)")
                ok = false
            }
        }
        if let path = options.htmlFile {
            let page = html(
                report, artifacts: options.artifactsDirectory,
                linkPrefix: options.artifactsDirectory.map { relativePrefix(from: path, to: $0) } ?? "",
                suggestions: options.suggestDirectory)
            ok = ReportOutput(flag: "--html", path: path, kind: .page).written(page) && ok
        }
        return ok
    }

    /// How a page at `page` reaches the folder `artifacts`: "" beside it, else the folder's path
    /// (absolute, or as given) with a slash.
    private static func relativePrefix(from page: String, to artifacts: String) -> String {
        let pageFolder = page.contains("/") ? String(page[..<page.lastIndex(of: "/")!]) : "."
        if pageFolder == artifacts || (pageFolder == "." && artifacts == ".") { return "" }
        if artifacts.hasPrefix("/") || pageFolder == "." { return artifacts + "/" }
        return MutationReport.workingDirectory + "/" + artifacts + "/"
    }

    static func html(
        _ report: MutationReport, artifacts: String?, linkPrefix: String, suggestions: String?
    ) -> String {
        let score = formatNumber((report.score * 10).rounded() / 10)
        var body = """
            <header><h1>Mutation score <span class="score">\(score)%</span></h1>
            <p class="summary">\(report.detected) detected of \(report.valid) valid mutants (detected: killed and \
            timed out; valid: detected, survived and not covered; runtime errors and ignored mutants are left \
            out, as Stryker counts). \(counts(report)). \(report.tests.count) test\(report.tests.count == 1 ? "" : "s").</p>
            </header>

            """
        var specs: [String] = []
        for outcome in report.outcomes where !specs.contains(outcome.mutant.spec) {
            specs.append(outcome.mutant.spec)
        }
        body +=
            "<nav>"
            + specs.map { spec in
                let group = report.outcomes.filter { $0.mutant.spec == spec }
                let undetected = group.contains { $0.status == .survived || $0.status == .noCoverage }
                return "<a href=\"#\(e(spec))\"\(undetected ? " class=\"weak\"" : "")>\(e(spec))</a>"
            }.joined(separator: " ") + "</nav>\n"
        for spec in specs {
            let group = report.outcomes.filter { $0.mutant.spec == spec }
            body += "<section id=\"\(e(spec))\"><h2>\(e(spec)) <small>\(group.count) mutant"
            body +=
                "\(group.count == 1 ? "" : "s"), \(group.filter { $0.status.isDetected }.count) killed</small></h2>\n"
            for outcome in group {
                body += mutant(
                    outcome, artifacts: artifacts, linkPrefix: linkPrefix, suggestions: suggestions)
            }
            body += "</section>\n"
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>stackplay mutate: \(score)%</title>
            <style>\(style)</style></head>
            <body>
            \(body)</body></html>

            """
    }

    private static func counts(_ report: MutationReport) -> String {
        MutantOutcome.Status.allCases.map { "\(report.count($0)) \($0.rawValue)" }.joined(separator: ", ")
    }

    private static func mutant(
        _ outcome: MutantOutcome, artifacts: String?, linkPrefix: String, suggestions: String?
    ) -> String {
        let mutant = outcome.mutant
        var html = "<article class=\"mutant \(outcome.status.rawValue)\" id=\"\(e(mutant.id))\">"
        html += "<div class=\"head\"><span class=\"status\">\(outcome.status.rawValue)</span> "
        html +=
            "<code class=\"id\">\(e(mutant.id))</code> <span class=\"kind\">\(mutant.kind.rawValue)</span></div>"
        html += "<p class=\"what\">\(e(mutant.summary))</p>"
        html += "<p class=\"replacement\"><code>\(e(mutant.replacement))</code> in "
        html += "<code>\(e(Mutant.sourceFolder + mutant.file))</code></p>"
        switch outcome.status {
        case .killed, .timeout:
            if let killer = outcome.killer {
                html += "<p class=\"by\">\(outcome.status == .killed ? "killed" : "timed out") by "
                let folder = artifacts.map { traceFolder($0, mutant) }
                if let folder, TraceFile.exists(folder + "/report.html") {
                    let href =
                        linkPrefix + "mutants/\(mutant.id)/report.html#test="
                        + percentEncoded(killer.test)
                    html += "<a class=\"trace\" href=\"\(e(href))\">\(e(killer.test))</a>"
                } else {
                    html += "<span class=\"test\">\(e(killer.test))</span>"
                }
                html += " at <code>\(e(killer.at))</code>"
                if outcome.reused { html += " <span class=\"reused\">(reused verdict)</span>" }
                html += "</p>"
                if !outcome.reason.isEmpty { html += "<p class=\"reason\">\(e(outcome.reason))</p>" }
            }
        case .survived, .noCoverage:
            if outcome.status == .noCoverage { html += "<p class=\"reason\">No test reached this point.</p>" }
            if let suggestions, let text = suggestion(for: mutant, in: suggestions) {
                html += "<details class=\"suggestion\" open><summary>Suggested test: <code>"
                html +=
                    "\(e(suggestions + "/" + mutant.id + ".lua"))</code></summary><pre>\(e(text))</pre></details>"
            } else if suggestions != nil {
                html += "<p class=\"reason\">--suggest found no scenario that tells it apart.</p>"
            }
        case .runtimeError, .ignored:
            html += "<p class=\"reason\">\(e(outcome.reason))</p>"
        }
        return html + "</article>\n"
    }

    /// The test `--suggest` wrote for `mutant` in `folder`, when it is there and was written by it.
    private static func suggestion(for mutant: Mutant, in folder: String) -> String? {
        let path = "\(folder)/\(mutant.id).lua"
        guard TraceFile.exists(path), let text = try? TraceFile.read(path),
            ReportOutput.Kind.suggestion.recognizes(text)
        else { return nil }
        return text
    }

    private static func e(_ text: String) -> String { TraceSVG.escape(text) }

    /// `text` for a URL's fragment: letters, digits and `-._~` as they are, every other byte %XX.
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(UnicodeScalar(byte))
            default:
                let digits = String(byte, radix: 16, uppercase: true)
                out += "%" + (digits.count == 1 ? "0" : "") + digits
            }
        }
        return out
    }

    private static let style = """
        body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:980px;padding:16px 24px;color:#1d2330;background:#fafbfc}
        h1{font-size:22px;margin:8px 0}.score{color:#0b6b3a}.summary{color:#4a5160}
        nav{margin:12px 0 20px;display:flex;flex-wrap:wrap;gap:6px}nav a{padding:2px 8px;border-radius:10px;background:#e4efe8;color:#0b6b3a;text-decoration:none;font-weight:600}
        nav a.weak{background:#fbe3e1;color:#a3261b}
        section{margin:18px 0}h2{font-size:17px;border-bottom:1px solid #d8dce3;padding-bottom:4px}h2 small{font-weight:400;color:#667}
        .mutant{background:#fff;border:1px solid #dde1e8;border-left:5px solid #9aa3b2;border-radius:6px;padding:8px 12px;margin:8px 0}
        .mutant.Killed,.mutant.Timeout{border-left-color:#1e9e5a}.mutant.Survived,.mutant.NoCoverage{border-left-color:#d93a2b}
        .mutant.RuntimeError{border-left-color:#d9901f}.mutant.Ignored{border-left-color:#b4bac6;opacity:.85}
        .status{display:inline-block;min-width:92px;font-weight:700;font-size:12px;text-transform:uppercase;letter-spacing:.03em}
        .Killed .status,.Timeout .status{color:#1e7e4a}.Survived .status,.NoCoverage .status{color:#b7281c}.RuntimeError .status{color:#a86a0c}.Ignored .status{color:#6b7280}
        .kind{color:#7a8190;font-size:12px}.what{margin:4px 0}.replacement,.by,.reason{margin:4px 0;color:#3d4452}
        code{font:12.5px ui-monospace,SFMono-Regular,Menlo,monospace;background:#f1f3f6;padding:1px 4px;border-radius:3px}
        .reused{color:#7a8190}.suggestion pre{background:#0f1720;color:#e6edf3;padding:10px;border-radius:6px;overflow:auto;font-size:12.5px}
        summary{cursor:pointer;color:#3d4452}a.trace{color:#1958c7}
        """
}
