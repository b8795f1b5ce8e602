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
    /// Answers written since the last ring, and their bytes.
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
            if let own = next() {
                bytes = own
            } else {
                guard let request = nextRequest() else { _exit(0) }
                bytes = answer(request)
            }
            var frame = [UInt8]()
            frame.reserveCapacity(16 + bytes.count)
            withUnsafeBytes(of: Int64(8 + bytes.count).littleEndian) { frame.append(contentsOf: $0) }
            withUnsafeBytes(of: WorkerPool.now().bitPattern.littleEndian) { frame.append(contentsOf: $0) }
            frame.append(contentsOf: bytes)
            write(frame)
        }
    }

    /// The next request: from what was read before, or read now (the parent is rung first when
    /// there is nothing to read: it may be waiting for the answers before it sends more).
    private mutating func nextRequest() -> [UInt8]? {
        while true {
            if end - start >= 8 {
                var field: Int64 = 0
                for shift in 0..<8 { field |= Int64(input[start + shift]) << (8 * shift) }
                guard field >= 0, field <= Int.max - 8 else { _exit(1) }
                let size = Int(field)
                if end - start >= 8 + size {
                    defer { start += 8 + size }
                    return Array(input[start + 8..<start + 8 + size])
                }
                if 8 + size > input.count - start {
                    // make room: what is there moves to the front, and the buffer grows to hold the request
                    input = Array(input[start..<end]) + [UInt8](repeating: 0, count: max(1 << 16, 8 + size))
                    end -= start
                    start = 0
                }
            } else if start == end {
                start = 0
                end = 0
            } else if input.count - start < 8 {
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
    private mutating func write(_ frame: [UInt8]) {
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
        // the parent sends more once half of what it holds for this worker is answered (a job the
        // worker ran of itself counted in the job that led to it)
        unrung += 1
        unrungBytes += frame.count
        if unrung >= WorkerPool.ring || unrungBytes >= unrungMostBytes { ring() }
    }

    private mutating func ring() {
        var bell: UInt8 = 1
        _ = Glibc.write(doorbell, &bell, 1)  // a full doorbell has rung already
        unrung = 0
        unrungBytes = 0
    }
}
