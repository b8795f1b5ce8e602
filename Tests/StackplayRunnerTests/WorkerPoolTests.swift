import Bindings
import TestResults
import Testing

@testable import StackplayRunner

#if canImport(Glibc)
    import Glibc
#endif

/// Worker processes: answers come back by index, a crash and a hang are that job's outcome only.
/// (Each test forks; the test process has threads, which is safe here because the workers only
/// run the closure and `_exit`.)
@Suite(.serialized) struct WorkerPoolUnitTests {
    @Test func `every job's answer comes back under its index`() {
        let pool = WorkerPool(workers: 2, count: 20, timeout: 0) { index in
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
        let pool = WorkerPool(workers: 1, count: 4, timeout: 0.5) { index in
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
            case .stopped(let message): outcomes[index] = "stopped \(message)"
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
        let pool = WorkerPool(workers: 1, count: 2, timeout: 0) { index in
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
}
