import Bindings
import TestResults
import Testing

@testable import Workers

#if canImport(Glibc)
    import Glibc
#endif

/// Worker processes: answers come back by index, a crash and a hang are that job's outcome only.
/// (Each test forks; the test process has threads, which is safe here because the workers only
/// run the closure and `_exit`.)
@Suite(.serialized) struct WorkerPoolUnitTests {
    @Test func `every job's answer comes back under its index`() {
        let pool = WorkerPool(workers: 2, count: 20, timeout: 0, hooks: .bare) { index in
            [UInt8(index), UInt8(index * 2 % 256)]
        }
        var answers: [Int: [UInt8]] = [:]
        let ended = pool.run { index, outcome in
            if case .finished(let bytes) = outcome { answers[index] = bytes }
        }
        pool.killAll()
        #expect(ended)
        #expect(answers.count == 20)
        for index in 0..<20 { #expect(answers[index] == [UInt8(index), UInt8(index * 2 % 256)]) }
    }

    @Test func `a crash and a hang are reported for their job and the others finish`() {
        let pool = WorkerPool(workers: 1, count: 4, timeout: 0.5, hooks: .bare) { index in
            if index == 1 { raise(SIGILL) }
            if index == 2 { while true { sleep(1) } }
            return [UInt8(index)]
        }
        var outcomes: [Int: String] = [:]
        _ = pool.run { index, outcome in
            switch outcome {
            case .finished(let bytes): outcomes[index] = "finished \(bytes)"
            case .crashed(let signal, let status):
                outcomes[index] = "crashed \(signal.map(String.init) ?? "-") \(status)"
            case .timedOut(let seconds): outcomes[index] = "timed out \(seconds)"
            case .stopped(let message, _, _): outcomes[index] = "stopped \(message)"
            }
        }
        pool.killAll()
        #expect(outcomes[0] == "finished [0]")
        #expect(outcomes[1] == "crashed \(SIGILL) 0")
        #expect(outcomes[2] == "timed out 0.5")
        #expect(outcomes[3] == "finished [3]")
    }

    @Test func `a worker starts its next job while the run still handles the answer before it`() throws {
        // job 1 leaves a file; the run's handling of job 0's answer waits for that file, which
        // only appears if job 1 was already sent (it waits 5 s at most, then the test fails)
        let marker = "/tmp/stackplay-pool-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        defer { unlink(marker) }
        let pool = WorkerPool(workers: 1, count: 2, timeout: 0, hooks: .bare) { index in
            if index == 1 { close(open(marker, O_CREAT | O_WRONLY, 0o600)) }
            return [UInt8(index)]
        }
        var sawMarker = false
        var answers: [Int: [UInt8]] = [:]
        let ended = pool.run { index, outcome in
            if case .finished(let bytes) = outcome { answers[index] = bytes }
            guard index == 0 else { return }
            for _ in 0..<500 where !sawMarker {
                sawMarker = access(marker, F_OK) == 0
                if !sawMarker { usleep(10_000) }
            }
        }
        pool.killAll()
        #expect(ended)
        #expect(sawMarker)
        #expect(answers == [0: [0], 1: [1]])
    }

    @Test func `an answer reaches the run while a later job sent with it still runs`() throws {
        // job 1 waits for a file that the run makes when job 0's answer arrives: the worker holds
        // both jobs and rings only every few answers, so job 0's answer must come by the run's own
        // clock (it waits 5 s at most, then answers 0 and the test fails)
        let marker = "/tmp/stackplay-pool-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        defer { unlink(marker) }
        let pool = WorkerPool(workers: 1, count: 2, timeout: 0, hooks: .bare) { index in
            guard index == 1 else { return [0] }
            for _ in 0..<500 {
                if access(marker, F_OK) == 0 { return [1] }
                usleep(10_000)
            }
            return [0]
        }
        var answers: [Int: [UInt8]] = [:]
        let ended = pool.run { index, outcome in
            if case .finished(let bytes) = outcome { answers[index] = bytes }
            if index == 0 { close(open(marker, O_CREAT | O_WRONLY, 0o600)) }
        }
        pool.killAll()
        #expect(ended)
        #expect(answers == [0: [0], 1: [1]])
    }

    @Test func `answers larger than the pipe and many at once all come back whole and in order`() {
        // 64 KiB pipes: answers of 1 MiB and of 40 KiB fill them, and 100 jobs of small ones make
        // several rings' worth
        let size = { (index: Int) in index % 10 == 3 ? 1 << 20 : index % 10 == 7 ? 40 << 10 : 1 + index % 5 }
        let pool = WorkerPool(workers: 2, count: 100, timeout: 0, hooks: .bare) { index in
            (0..<size(index)).map { UInt8(truncatingIfNeeded: index &+ $0) }
        }
        var order: [Int] = []
        var whole = 0
        let ended = pool.run { index, outcome in
            order.append(index)
            guard case .finished(let bytes) = outcome, bytes.count == size(index) else { return }
            if bytes.indices.allSatisfy({ bytes[$0] == UInt8(truncatingIfNeeded: index &+ $0) }) {
                whole += 1
            }
        }
        pool.killAll()
        #expect(ended)
        #expect(whole == 100)
        #expect(order.sorted() == Array(0..<100))
    }

    @Test func `a crash in the middle of a batch reports the jobs before it and runs the ones after it`() {
        // one worker holds all twelve jobs; job 5 crashes it after jobs 0 to 4 answered
        let pool = WorkerPool(workers: 1, count: 12, timeout: 0, hooks: .bare) { index in
            if index == 5 { raise(SIGSEGV) }
            return [UInt8(index)]
        }
        var outcomes: [Int: String] = [:]
        var order: [Int] = []
        _ = pool.run { index, outcome in
            order.append(index)
            switch outcome {
            case .finished(let bytes): outcomes[index] = "finished \(bytes)"
            case .crashed(let signal, _): outcomes[index] = "crashed \(signal.map(String.init) ?? "-")"
            default: outcomes[index] = "other"
            }
        }
        pool.killAll()
        #expect(order == Array(0..<12))
        for index in 0..<12 where index != 5 { #expect(outcomes[index] == "finished [\(index)]") }
        #expect(outcomes[5] == "crashed \(SIGSEGV)")
    }

    @Test func `a file's jobs go to one worker, to the one that served the file first`() {
        let keys = ["a", "a", "a", "b", "b", "c"]
        var order = JobOrder(count: keys.count) { keys[$0] }
        var first: Set<String> = []
        var second: Set<String> = ["c"]  // it discovered c.lua
        #expect(order.next(for: 0, served: &first) == 0)
        #expect(order.next(for: 1, served: &second) == 5)
        #expect(order.next(for: 1, served: &second) == 3)
        #expect(order.next(for: 0, served: &first) == 1)
        #expect(order.next(for: 0, served: &first) == 2)
        #expect(order.next(for: 1, served: &second) == 4)
        #expect(order.next(for: 0, served: &first) == nil)
        #expect(first == ["a"] && second == ["b", "c"])
    }

    @Test func `a worker takes the files it served before the others, however far down the list`() {
        // 40 files of 2 jobs; the second worker discovered the last 20 (it has them compiled)
        let keys = (0..<80).map { "f\($0 / 2)" }
        var order = JobOrder(count: keys.count) { keys[$0] }
        var first: Set<String> = Set((0..<20).map { "f\($0)" })
        var second: Set<String> = Set((20..<40).map { "f\($0)" })
        var handed: [[Int]] = [[], []]
        var slot = 0
        while let job = slot == 0 ? order.next(for: 0, served: &first) : order.next(for: 1, served: &second) {
            handed[slot].append(job)
            slot = 1 - slot
        }
        #expect(handed[0] == Array(0..<40))
        #expect(handed[1] == Array(40..<80))
    }

    @Test func `a worker's own file far ahead of the first free one waits: results would pile up`() {
        // files of 1,200 jobs: the second worker's own file starts 1,200 jobs past the first free
        // one (f1, once the first worker has f0); with files of 600 it is near enough
        for size in [1200, 600] {
            let keys = (0..<3 * size).map { "f\($0 / size)" }
            var order = JobOrder(count: keys.count) { keys[$0] }
            var first: Set<String> = []
            var second: Set<String> = ["f2"]
            #expect(order.next(for: 0, served: &first) == 0)
            #expect(order.next(for: 1, served: &second) == (size == 1200 ? size : 2 * size))
        }
    }

    @Test func `a worker with nothing left takes the next jobs of the largest share`() {
        var order = JobOrder(count: 20) { _ in "big" }
        var first: Set<String> = []
        var second: Set<String> = []
        #expect(order.next(for: 0, served: &first) == 0)
        // the share is taken: the second worker takes the 8 jobs after the first worker's next one
        #expect((0..<8).map { _ in order.next(for: 1, served: &second) } == Array(1...8))
        #expect(order.next(for: 0, served: &first) == 9)
        var handed = [0, 9] + Array(1...8)
        while let job = order.next(for: handed.count % 2, served: &first) { handed.append(job) }
        #expect(handed.sorted() == Array(0..<20))
    }

    @Test func `jobs without a key are handed out in order`() {
        var order = JobOrder(count: 5, key: nil)
        var served: Set<String> = []
        #expect((0..<6).map { order.next(for: $0 % 2, served: &served) } == [0, 1, 2, 3, 4, nil])
    }

    @Test func `results cross the pipe field by field`() throws {
        let test = TestCase(
            file: "a.lua", root: "r", name: "n", position: "a.lua:1", index: 3, skipped: false, focused: true,
            tags: ["rtl"])
        var result = TestResult(
            test: test, status: .failed, message: "m", traceback: "t", dump: "d", position: "p",
            seconds: 0.25,
            traces: ["x", "y"], output: "o", seed: 9)
        result.kind = .error
        result.expected = "e"
        result.picture = "<svg/>"
        result.test = test.under(
            try ScreenVariant(validating: [("layout_direction", "rtl")]).mirrored)
        #expect(result.test.name == "n [rtl, mirrored]" && result.test.variant.isMirrored)
        var writer = WireWriter()
        writer.result(result)
        var reader = WireReader(writer.bytes)
        #expect(reader.result() == result)
        var truncated = WireReader(Array(writer.bytes.dropLast(3)))
        #expect(truncated.result() == nil)
    }

    @Test func `a result whose test is the request's leaves the test out and reads back whole`() {
        let sent = TestCase(
            file: "a.lua", root: nil, name: "n", position: "a.lua:1", index: 0, skipped: false)
        var other = sent
        other.name = "renamed"
        for test in [sent, other] {
            let result = TestResult(test: test, status: .passed, output: "o", seed: 3)
            var full = WireWriter()
            full.result(result)
            var short = WireWriter()
            short.result(result, known: sent)
            var reader = WireReader(short.bytes)
            #expect(reader.result(known: sent) == result)
            // one flag byte beside the whole test, or instead of it
            #expect(
                short.bytes.count
                    == (test == sent ? full.bytes.count + 1 - testBytes(sent) : full.bytes.count + 1))
        }
    }

    @Test func `a test is the request's only when every field is, texts byte for byte`() {
        let sent = TestCase(
            file: "a.lua", root: "r", name: "caf\u{E9}", position: "a.lua:1", index: 2, skipped: false,
            tags: ["x"])
        var decomposed = sent
        decomposed.name = "cafe\u{301}"  // equal as Swift strings, not as bytes
        var tagged = sent
        tagged.tags = ["y"]
        var rootless = sent
        rootless.root = nil
        var focused = sent
        focused.focused = true
        #expect(WireWriter.sameOnWire(sent, sent))
        #expect(decomposed.name == sent.name)
        for other in [decomposed, tagged, rootless, focused] {
            #expect(!WireWriter.sameOnWire(other, sent))
            #expect(other != sent)
        }
    }

    private func testBytes(_ test: TestCase) -> Int {
        var writer = WireWriter()
        writer.test(test)
        return writer.bytes.count
    }
}

/// `fork` without `exec` only from a process with one thread (issue 42): the `stackplay` command
/// checks before each fork and ends the run with this error; the test host, which has many
/// threads, calls the pool with the check off (``WorkerPool/forksOnlyAlone``).
struct ForkCheckTests {
    @Test func `a process with more than one thread may not fork a worker, and says why`() throws {
        #expect(WorkerPool.forkRefusal(threads: 1) == nil)
        #expect(WorkerPool.forkRefusal(threads: nil) == nil, "unknown: /proc not mounted")
        let refusal = try #require(WorkerPool.forkRefusal(threads: 3))
        #expect(refusal.hasPrefix("stackplay: cannot start a worker process: this process has 3 threads"))
        #expect(refusal.contains("needs exactly one"))
    }
}

/// The pool reads a stop frame by the bit the Lua watchdog sets in its length: the two agree, and a
/// frame with a kept output and dropped bytes reads back as the runner reports it.
struct StopFrameTests {
    @Test func `the pool's stop bit is the watchdog's`() {
        #expect(WorkerPool.stoppedFlag == ScriptWatchdog.stoppedFlag)
        #expect(WorkerPool.stoppedFlag == 1 << 62)
    }

    @Test func `a stop frame gives its message, the output kept and the bytes dropped`() {
        let frame = Array("x.lua:3: stopped".utf8) + [0] + Array("12".utf8) + [0] + Array("hello\n".utf8)
        let (message, output, dropped) = WorkerPool.stop(frame)
        #expect(message == "x.lua:3: stopped")
        #expect(output == "hello\n")
        #expect(dropped == 12)
        let bare = WorkerPool.stop(Array("x.lua:3: stopped".utf8))
        #expect(bare.message == "x.lua:3: stopped" && bare.output.isEmpty && bare.dropped == 0)
    }
}
