import TestResults
import Testing

@testable import StackplayRunner
@testable import Workers

#if canImport(Glibc)
    import Glibc
#endif

/// What a worker runs of itself right after a job (a file's first tests after its discovery):
/// the pool counts those jobs as the worker's next, and sends them to another worker only when it
/// dies; the wire and the job order around them.
@Suite(.serialized) struct RunningAsFoundTests {
    /// The answers a worker gives of itself after job 0 (a forked worker's own copy).
    nonisolated(unsafe) static var own: [UInt8] = []

    private static func pool(crashingAt crash: UInt8? = nil) -> WorkerPool {
        WorkerPool(workers: 1, timeout: 0, hooks: .bare) { request in
            if request == [0] { own = [100, 101] }
            return request
        } next: {
            guard !own.isEmpty else { return nil }
            let answer = own.removeFirst()
            if answer == crash { raise(SIGSEGV) }
            return [answer]
        }
    }

    /// Job `index`'s request: its index.
    private static func request(_ index: Int) -> [UInt8] { [UInt8(index)] }

    private static func describe(_ outcome: WorkerPool.Outcome) -> String {
        switch outcome {
        case .finished(let bytes): "\(bytes)"
        case .crashed(let signal, _): "crashed \(signal.map(String.init) ?? "-")"
        case .timedOut: "timed out"
        case .stopped(let message, _, _): "stopped \(message)"
        }
    }

    @Test func `jobs a worker runs of itself come back right after the job that started them`() {
        let pool = Self.pool()
        var answers: [String] = []
        let ended = pool.run(count: 3, request: Self.request) { job, outcome in
            answers.append("\(job): \(Self.describe(outcome))")
            if job == 0 { pool.extend(by: 2, runningAfter: ()) }
        }
        pool.killAll()
        #expect(ended)
        // jobs 1 and 2 were sent with job 0; the worker's own, numbered 3 and 4, come before them
        #expect(answers == ["0: [0]", "3: [100]", "4: [101]", "1: [1]", "2: [2]"])
    }

    @Test func `a worker that dies in a job it ran of itself: that job crashed, the rest is sent`() {
        let pool = Self.pool(crashingAt: 100)
        var answers: [Int: String] = [:]
        let ended = pool.run(count: 3, request: Self.request) { job, outcome in
            answers[job] = Self.describe(outcome)
            if job == 0 { pool.extend(by: 2, runningAfter: ()) }
        }
        pool.killAll()
        #expect(ended)
        // job 4 never ran in the worker that died: the next one gets its request
        #expect(answers == [0: "[0]", 3: "crashed \(SIGSEGV)", 4: "[4]", 1: "[1]", 2: "[2]"])
    }

    @Test(arguments: [false, true])
    func `a job's weight is the room it takes in its worker's queue`(weighted: Bool) {
        // job 0 is slow: the jobs queued behind it wait for it, unless each fills a worker's queue
        // (then every other job goes to the other worker as it frees up)
        let pool = WorkerPool(workers: 2, timeout: 0, hooks: .bare) { request in
            if request == [0] { usleep(300_000) }
            return withUnsafeBytes(of: getpid()) { Array($0) }
        }
        var ranIn: [Int: [UInt8]] = [:]
        func heavy(_ job: Int) -> Int { 1_000 }
        let weight = weighted ? heavy : nil
        let ended = pool.run(count: 10, request: Self.request, weight: weight) { job, outcome in
            if case .finished(let pid) = outcome { ranIn[job] = pid }
        }
        pool.killAll()
        #expect(ended)
        let behindTheSlowOne = (1..<10).filter { ranIn[$0] == ranIn[0] }
        #expect(weighted ? behindTheSlowOne.isEmpty : !behindTheSlowOne.isEmpty, "\(behindTheSlowOne)")
    }

    @Test func `jobs added to a running batch are handed out, those a worker runs of itself never`() {
        var order = JobOrder(count: 2) { $0 == 1 ? "f1" : "f0" }
        var served: Set<String> = []
        #expect(order.next(for: 0, served: &served) == 0)
        order.extend(to: 5, served: [served], taken: true)
        order.extend(to: 7, served: [served])
        // the worker that served f0 has its new jobs first: they are its own
        #expect(order.next(for: 0, served: &served) == 5)
        #expect(order.next(for: 0, served: &served) == 6)
        #expect(order.next(for: 0, served: &served) == 1)
        #expect(order.next(for: 0, served: &served) == nil)
        #expect(order.count == 7)
    }

    @Test func `a passed or skipped result with nothing but its time and seed crosses as them`() {
        let test = TestCase(
            file: "a.lua", root: nil, name: "n", position: "a.lua:1", index: 1, skipped: false)
        for status in [TestResult.Status.passed, .skipped] {
            let result = TestResult(test: test, status: status, seconds: 0.5, seed: 7)
            var writer = WireWriter()
            writer.result(result, known: test)
            #expect(writer.bytes.count == 1 + 8 + 8)
            var reader = WireReader(writer.bytes)
            #expect(reader.result(known: test) == result)
        }
        // anything more, or a failure, goes field by field
        var printed = TestResult(test: test, status: .passed, seconds: 0.5, output: "hi", seed: 7)
        var failed = TestResult(test: test, status: .failed, seconds: 0.5, seed: 7)
        failed.kind = .failure
        for result in [printed, failed] {
            var writer = WireWriter()
            writer.result(result, known: test)
            #expect(writer.bytes.count > 1 + 8 + 8)
            var reader = WireReader(writer.bytes)
            #expect(reader.result(known: test) == result)
        }
        printed.output = ""
        #expect(WireWriter.plainStatus(printed) == WireWriter.plainPassed)
    }

    @Test func `a test's base name crosses the wire as its bytes, even when canonically its name`() {
        // NFC "café" named, NFD "café" as its base name: equal to Swift's ==, not the same bytes
        var test = TestCase(
            file: "a.lua", root: nil, name: "caf\u{E9}", position: "a.lua:1", index: 1, skipped: false)
        test.baseName = "cafe\u{301}"
        var writer = WireWriter()
        writer.test(test)
        var reader = WireReader(writer.bytes)
        let read = reader.test()
        #expect(read?.baseName.utf8.elementsEqual("cafe\u{301}".utf8) == true)
        #expect(read?.name.utf8.elementsEqual("caf\u{E9}".utf8) == true)
    }

    @Test func `a copy of a test or a result is its own once changed`() {
        let test = TestCase(
            file: "a.lua", root: "r", name: "n", position: "a.lua:1", index: 1, skipped: false)
        var copy = test
        #expect(copy.isSameStorage(as: test))
        copy.tags.append("rtl")
        #expect(!copy.isSameStorage(as: test))
        #expect(test.tags.isEmpty && copy.tags == ["rtl"])
        let result = TestResult(test: test, status: .passed)
        var changed = result
        changed.test.name = "m"
        changed.traces.append("{}")
        #expect(result.test.name == "n" && result.traces.isEmpty)
        #expect(changed.test.name == "m" && changed.traces == ["{}"])
        #expect(result != changed && result == TestResult(test: test, status: .passed))
    }

    @Test(arguments: [
        ("a/b.lua", "a/b.lua"), ("./a/b.lua", "a/b.lua"), ("a//b.lua", "a/b.lua"), ("a/./b.lua", "a/b.lua"),
        ("/a/b.lua", "/a/b.lua"), ("//a", "/a"), ("a/", "a"), ("a/.", "a"), (".", ""), ("/", "/"),
        ("../a.lua", "../a.lua"), ("a/..b/.c", "a/..b/.c"),
    ])
    func `a path is named once however it is written`(path: String, plain: String) {
        #expect(Discovery.plainPath(path) == plain)
    }

    @Test(arguments: [
        ("a/b.lua", "a"), ("/b.lua", "/"), ("b.lua", "."), ("a//b.lua", "a/"), ("a/b/", "a/b"),
        // the last slash as the system reads the path: a mark after it, or a character that joins
        // the one after it (U+0600), leaves it a slash
        ("a/\u{301}b.lua", "a"), ("\u{600}/x.lua", "\u{600}"), ("caf\u{E9}/t.lua", "caf\u{E9}"),
    ])
    func `a script's folder is what comes before its last slash byte`(path: String, folder: String) {
        #expect(Array(Discovery.folder(of: path).utf8) == Array(folder.utf8))
    }
}
