import Foundation
import StackplayRunner
import Traces

/// Watch in the studio: the runner's ``FileWatcher`` (inotify; its thread blocks until a save)
/// and ``AffectedScripts`` (a saved helper re-runs the scripts that `require` it), as
/// `stackplay --watch` uses them. Each round lists the tests again and re-runs the affected files.
final class StudioWatch: @unchecked Sendable {
    private let watcher: FileWatcher

    /// Starts watching `paths` on its own thread; nil (and the page works without watch) when
    /// inotify cannot watch them.
    init?(paths: [String], tests: TestsPane, publish: @escaping @Sendable (JSONValue) -> Void) {
        guard let watcher = try? FileWatcher(paths) else { return nil }
        self.watcher = watcher
        // The watcher's own thread is the only one that waits on it; stop() is safe from any.
        nonisolated(unsafe) let waiting = watcher
        let thread = Thread {
            while let changed = waiting.wait() {
                let scripts = (try? AffectedScripts.scripts(in: paths, root: nil)) ?? []
                let affected = AffectedScripts(scripts).affected(by: changed)
                publish(
                    .object([("type", .string("changed")), ("files", .array(changed.map { .string($0) }))]))
                tests.list()
                for script in affected { tests.run(file: script.path, test: nil) }
            }
        }
        thread.name = "stackplay-studio watch"
        thread.start()
    }

    func stop() { watcher.stop() }
}
