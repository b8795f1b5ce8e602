import TestResults

#if canImport(Glibc)
    import Glibc
#endif

/// The trace viewer: one self-contained HTML page (`stackplay view`, and `report.html` of
/// `--artifacts`) with a test list and a filter, and for the selected test a timeline to scrub,
/// the frame at each event drawn large with the fingers and drag translations, the event list,
/// the components' state, and for a failure the failing event and the golden frame over it.
///
/// The page holds the run as data, not pictures: each trace (JSON Lines) is compressed
/// (``Deflate``, Base64) into its own `<script>` element, and the page's JavaScript
/// (`Sources/Traces/Viewer/viewer.js`, compiled in through ``EmbeddedViewer``) inflates and draws
/// only the test being looked at. Nothing is fetched. The same run gives the same bytes, except
/// the tests' durations when they are given.
public enum TraceViewer {
    /// How a test ended (the run's own ``TestResult/Status``), or `trace` for a trace shown by
    /// `stackplay view` without a run.
    public enum Status: Sendable, Equatable {
        case result(TestResult.Status)
        case trace

        public static let passed = Status.result(.passed)
        public static let failed = Status.result(.failed)
        public static let skipped = Status.result(.skipped)

        /// What the page's data says: `passed`, `failed`, `skipped` or `trace`.
        public var rawValue: String {
            switch self {
            case .result(let status): status.rawValue
            case .trace: "trace"
            }
        }
    }

    /// One screen a test made: its trace file name, the trace, and the golden trace it was
    /// compared with (`--golden`), when there is one.
    public struct Screen: Sendable {
        public var name: String
        public var trace: String
        public var golden: String?

        public init(name: String, trace: String, golden: String? = nil) {
            self.name = name
            self.trace = trace
            self.golden = golden
        }
    }

    /// One test as the viewer lists it.
    public struct Test: Sendable {
        public var name: String
        public var status: Status
        /// Wall time in seconds; nil when not known (a trace on its own).
        public var seconds: Double?
        public var message: String
        public var screens: [Screen]
        /// What the test printed (the viewer's console pane).
        public var output: String
        /// The text of each script file the test's actions name (``TraceViewer/sources(of:script:embeds:)``),
        /// for the source pane.
        public var sources: [String: String]
        /// How it failed: `failure` (an expectation, a golden trace) or `error` (a Lua error, a
        /// budget stop, a crash); "" when it did not fail.
        public var kind = ""
        /// `path:line` of the failure ("" when not known).
        public var position = ""
        /// The Lua traceback of an error, and the screens' state when it failed.
        public var traceback = ""
        public var dump = ""
        /// The likely cause of a failed expectation and the `path:line` of its call
        /// (``TestResults/TestResult/cause``).
        public var cause = ""
        public var causePosition = ""
        /// The seed `math.random` started from, when it ran.
        public var seed: Int?

        public init(
            name: String, status: Status, seconds: Double? = nil, message: String = "", screens: [Screen],
            output: String = "", sources: [String: String] = [:]
        ) {
            self.name = name
            self.status = status
            self.seconds = seconds
            self.message = message
            self.screens = screens
            self.output = output
            self.sources = sources
        }
    }

    /// The text of `script` and of the other files the actions of `traces` name that `embeds`
    /// allows (a module the script required), by the name they give; a file that cannot be read is
    /// left out. A name a trace gives is never read unless `embeds` says the command itself read
    /// that file: a crafted trace's `file: "/etc/shadow"` puts nothing in a page (docs/runner.md,
    /// "Trust boundaries").
    public static func sources(
        of traces: [String], script: String? = nil, embeds: (String) -> Bool
    ) -> [String: String] {
        var files = script.map { [$0] } ?? []
        for text in traces {
            guard let trace = try? Trace(text: text, file: "") else { continue }
            for action in trace.actions where !files.contains(action.file) && embeds(action.file) {
                files.append(action.file)
            }
        }
        var sources: [String: String] = [:]
        for file in files { sources[file] = try? TraceFile.read(file) }
        return sources
    }

    /// Whether `path` is a regular `.lua` file inside the folder `root` (links resolved): a
    /// module a script rooted there could `require`.
    public static func isModule(_ path: String, under root: String) -> Bool {
        guard path.hasSuffix(".lua"), let file = TraceFile.realPath(path),
            let folder = TraceFile.realPath(root)
        else { return false }
        var info = stat()
        guard stat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
        return file.hasPrefix(folder == "/" ? "/" : folder + "/")
    }

    /// The page for `tests`, in their order (the viewer opens the first failure).
    /// `metadata` is the run's (stackplay's version, the seed, the settings, the command), shown
    /// in the page's metadata panel in its order.
    public static func html(
        _ tests: [Test], title: String = "stackplay report", metadata: [(String, String)] = []
    ) -> String {
        var run = "{\"title\":\(json(title)),\"metadata\":["
        run += metadata.map { "[\(json($0.0)),\(json($0.1))]" }.joined(separator: ",")
        run += "],\"tests\":["
        var blobs = ""
        // Each source text once, however many tests show it: its blob's id by text.
        var sourceIDs: [String: String] = [:]
        for (t, test) in tests.enumerated() {
            if t > 0 { run += "," }
            run += "{\"name\":\(json(test.name)),\"status\":\"\(test.status.rawValue)\","
            run +=
                "\"seconds\":\(test.seconds.map(JSONValue.format) ?? "null"),\"message\":\(json(test.message)),"
            run += "\"output\":\(json(test.output)),\"sources\":{"
            for (f, file) in test.sources.keys.sorted().enumerated() {
                let text = test.sources[file]!
                let id = sourceIDs[text] ?? "s\(sourceIDs.count)"
                if sourceIDs[text] == nil {
                    sourceIDs[text] = id
                    blobs += blob(id, text)
                }
                run += (f > 0 ? "," : "") + "\(json(file)):\"\(id)\""
            }
            run += "},\"kind\":\(json(test.kind)),\"position\":\(json(test.position)),"
            run +=
                "\"traceback\":\(json(test.traceback)),\"dump\":\(json(test.dump)),\"cause\":\(json(test.cause)),"
            run +=
                "\"cause_position\":\(json(test.causePosition)),\"seed\":\(test.seed.map(String.init) ?? "null"),"
            run += "\"traces\":["
            for (s, screen) in test.screens.enumerated() {
                let id = "t\(t)-\(s)"
                // The screen as built goes with its trace, deflated with it: one more line at the end.
                blobs += blob(id, screen.trace + initialFrameLine(of: screen.trace))
                var golden = "null"
                if let text = screen.golden {
                    golden = json("g\(t)-\(s)")
                    blobs += blob("g\(t)-\(s)", text)
                }
                run +=
                    (s > 0 ? "," : "")
                    + "{\"name\":\(json(screen.name)),\"id\":\"\(id)\",\"golden\":\(golden)}"
            }
            run += "]}"
        }
        run += "]}"
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(TraceSVG.escape(title))</title>
            <style>
            \(EmbeddedViewer.css)
            </style></head><body>
            <nav id="sidebar"><header><h1 id="heading"></h1><div id="summary"></div>
            <input id="filter" type="search" placeholder="Filter tests (name, passed, failed)" autocomplete="off"></header>
            <ul id="tests"></ul></nav>
            <main><div id="detail-head"><h2 id="title"><span id="verdict"></span><span id="title-text"></span></h2><pre id="message"></pre>
            <div id="cause" hidden></div><details id="failure-details" hidden><summary>Traceback and state when it failed</summary>
            <h4 id="traceback-head">Traceback</h4><pre id="traceback"></pre><h4>State when it failed</h4><pre id="dump"></pre></details>
            <details id="metadata"><summary>Run</summary><table id="metadata-table"></table></details><div id="screens"></div></div>
            <div id="timeline-row"><div id="timeline"><div id="marks"></div><input id="scrub" type="range" min="0" max="0" value="0" aria-label="event"></div>
            <span id="position"></span></div>
            <div id="legend"></div>
            <div id="panes"><div id="lists"><h3>Actions</h3><input id="action-filter" type="search" placeholder="Search actions (method, line, text)" autocomplete="off"><ul id="actions"></ul><h3>Events</h3><ul id="events"></ul></div>
            <div id="frames-pane"><div id="frame-tools"><span id="modes"></span><button id="fit" type="button" title="Fit the frames to their panes (or double-click a frame)">Fit</button>
            <label id="overlay-control" hidden>golden <input id="overlay" type="range" min="0" max="100" value="50" aria-label="golden overlay"></label></div>
            <div id="frames"><figure><figcaption id="before-caption">Before</figcaption><div id="frame-before" class="frame-box"></div></figure>
            <figure><figcaption id="after-caption">After</figcaption><div id="frame" class="frame-box"></div></figure></div>
            <div id="differences" hidden></div></div>
            <div id="side"><h3>Source</h3><div id="source"></div><h3>Console</h3><pre id="output"></pre>
            <h3>State at this event</h3><div id="state"></div></div></div></main>
            <div id="card-tip" role="tooltip" hidden></div>
            <noscript>The viewer needs JavaScript to draw the traces.</noscript>
            <script type="application/json" id="stackplay-run">\(run)</script>
            \(blobs)<script>
            \(EmbeddedViewer.js)
            </script>
            </body></html>

            """
    }

    /// The screen as the trace's header builds it, before any event, as a line the page reads
    /// after the trace's own (`{"initial_frame":{...}}`; "" when the trace does not read): the page
    /// draws it as the frame before the first action. Traces hold no such frame, so traces of every
    /// version get one, and the trace files keep their bytes.
    static func initialFrameLine(of text: String) -> String {
        guard let trace = try? Trace(text: text, file: ""), let frame = try? TraceSVG.initialFrame(of: trace)
        else { return "" }
        return (text.hasSuffix("\n") ? "" : "\n") + "{\"initial_frame\":" + TraceFormat.encode(frame).text
            + "}\n"
    }

    /// A JSON string that is also safe inside `<script>`: `<` is written as `\u003c`.
    static func json(_ text: String) -> String {
        var out = ""
        for character in JSONValue.string(text).text {
            if character == "<" { out += "\\u003c" } else { out.append(character) }
        }
        return out
    }

    /// One trace, deflated and in Base64, in its own script element.
    static func blob(_ id: String, _ text: String) -> String {
        "<script type=\"application/octet-stream\" id=\"\(id)\" data-encoding=\"deflate-raw;base64\">"
            + Deflate.base64(Deflate.compress(Array(text.utf8))) + "</script>\n"
    }
}
