import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// A worker's side of its pipes: read a request, answer it, write the answer; end when the
/// request pipe closes. Requests are read as many at a time as have arrived; each answer is
/// written at once (so that it outlives a crash at the next job), and the parent is woken only
/// by a ring on the doorbell (``WorkerPool``).
struct WorkerLoop {
    let requests: Int32
    let answers: Int32
    let doorbell: Int32
    private var input = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    /// Whether a request has come: the parent placed this worker on its CPUs before it sent one
    /// (``Cores``), and it may run on all of them from then on.
    private var placed = false
    /// The weight of answers after which to ring, as the parent's last batch of requests said.
    private var ringAt = WorkerPool.ring
    /// The weight of the answers written since the last ring, and their bytes.
    private var unrung = 0
    private var unrungBytes = 0

    /// The most answer bytes left unrung (``WorkerPool/unrungMostBytes(pipe:)``, for this pipe's room).
    private let unrungMostBytes: Int

    init(requests: Int32, answers: Int32, doorbell: Int32) {
        self.requests = requests
        self.answers = answers
        self.doorbell = doorbell
        unrungMostBytes = WorkerPool.unrungMostBytes(pipe: Syscall.pipeRoom(answers) ?? 64 << 10)
    }

    /// Answers each request with `answer`; before it reads the next, the jobs it runs of itself,
    /// each answer that `next` gives (``WorkerPool/extend(by:runningAfter:)``).
    mutating func serve(_ answer: ([UInt8]) -> [UInt8], next: () -> [UInt8]?) -> Never {
        while true {
            let bytes: [UInt8]
            var weight = 0  // a job run of itself was in the weight of the request that led to it
            if let own = next() {
                bytes = own
            } else {
                guard let (request, weighs) = nextRequest() else { _exit(0) }
                bytes = answer(request)
                weight = weighs
            }
            var frame = [UInt8]()
            frame.reserveCapacity(16 + bytes.count)
            withUnsafeBytes(of: Int64(8 + bytes.count).littleEndian) { frame.append(contentsOf: $0) }
            withUnsafeBytes(of: WorkerPool.now().bitPattern.littleEndian) { frame.append(contentsOf: $0) }
            frame.append(contentsOf: bytes)
            write(frame, weight: weight)
        }
    }

    /// The next request and its weight (after its length, its weight and when to ring:
    /// ``WorkerPool``): from what was read before, or read now (the parent is rung first when there
    /// is nothing to read: it may be waiting for the answers before it sends more).
    private mutating func nextRequest() -> (request: [UInt8], weight: Int)? {
        while true {
            if end - start >= 24 {
                func field(_ at: Int) -> Int64 {
                    var value: Int64 = 0
                    for shift in 0..<8 { value |= Int64(input[start + at + shift]) << (8 * shift) }
                    return value
                }
                let (length, weight, ringAfter) = (field(0), field(8), field(16))
                guard length >= 0, length <= Int.max - 24, weight >= 0, ringAfter > 0 else { _exit(1) }
                let size = Int(length)
                if end - start >= 24 + size {
                    defer { start += 24 + size }
                    ringAt = Int(ringAfter)
                    return (Array(input[start + 24..<start + 24 + size]), Int(weight))
                }
                if 24 + size > input.count - start {
                    // make room: what is there moves to the front, and the buffer grows to hold the request
                    input = Array(input[start..<end]) + [UInt8](repeating: 0, count: max(1 << 16, 24 + size))
                    end -= start
                    start = 0
                }
            } else if start == end {
                start = 0
                end = 0
            } else if input.count - start < 24 {
                input.replaceSubrange(0..<end - start, with: input[start..<end])
                end -= start
                start = 0
            }
            if unrung > 0 || unrungBytes > 0 {
                var ready = pollfd(fd: requests, events: Int16(POLLIN), revents: 0)
                if poll(&ready, 1, 0) == 0 { ring() }
            }
            let got = input.withUnsafeMutableBytes {
                Syscall.read(requests, into: UnsafeMutableRawBufferPointer(rebasing: $0[end...]))
            }
            if got <= 0 { return nil }
            if !placed {
                placed = true
                Cores.runAnywhere()
            }
            end += got
        }
    }

    /// Writes `frame` to the answer pipe, and rings when enough answers are there. A frame that
    /// may not fit in the pipe beside those there goes length first, then a ring, then the rest:
    /// the parent, woken with part of an answer in its hands, reads the rest as it is written.
    private mutating func write(_ frame: [UInt8], weight: Int) {
        frame.withUnsafeBytes { bytes in
            var sent = 0
            if unrungBytes + bytes.count > unrungMostBytes {
                guard Syscall.writeAll(answers, UnsafeRawBufferPointer(rebasing: bytes[..<8])) == nil else {
                    _exit(1)
                }
                ring()
                sent = 8
            }
            guard Syscall.writeAll(answers, UnsafeRawBufferPointer(rebasing: bytes[sent...])) == nil else {
                _exit(1)
            }
        }
        // the parent sends more once half of what it sent is done (the weight its last batch said)
        unrung += weight
        unrungBytes += frame.count
        if unrung >= ringAt || unrungBytes >= unrungMostBytes { ring() }
    }

    private mutating func ring() {
        var bell: UInt8 = 1
        _ = Glibc.write(doorbell, &bell, 1)  // a full doorbell has rung already
        unrung = 0
        unrungBytes = 0
    }
}
