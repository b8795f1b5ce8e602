import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// The parent's side of the answer pipes (``WorkerPool``): each worker's answers read into its
/// buffer as they come, and taken out whole, one job's at a time.
extension WorkerPool {
    /// Reads the rings there are (the end of the doorbell is the worker's death: its answers are
    /// then read to their end).
    func drainDoorbell(_ slot: Int) {
        var rings = [UInt8](repeating: 0, count: 64)
        while true {
            let got = rings.withUnsafeMutableBytes { Syscall.read(workers[slot].doorbell, into: $0) }
            if got < rings.count { break }
        }
    }

    /// Reads every answer byte there is into the worker's buffer, without waiting (the end of its
    /// pipe marks it closed).
    func readAnswers(_ slot: Int) {
        let fd = workers[slot].answers
        if chunk.isEmpty { chunk = [UInt8](repeating: 0, count: 1 << 16) }
        while true {
            if workers[slot].head == workers[slot].buffer.count {
                workers[slot].buffer.removeAll(keepingCapacity: workers[slot].buffer.capacity <= 1 << 20)
                workers[slot].head = 0
            }
            let got = chunk.withUnsafeMutableBytes { Syscall.read(fd, into: $0) }
            if got == 0 || (got < 0 && errno != EAGAIN) { workers[slot].closed = true }
            guard got > 0 else { return }
            workers[slot].buffer.append(contentsOf: chunk[0..<got])
            // a long answer (a 10,000-test file's list) gets its whole room once its length is known
            let have = workers[slot].buffer.count - workers[slot].head
            if have < 1 << 16, let length = answerHeader(slot)?.length, length > 1 << 20, length < 1 << 30,
                workers[slot].buffer.capacity < workers[slot].buffer.count - have + 8 + length
            {
                workers[slot].buffer.reserveCapacity(workers[slot].buffer.count - have + 8 + length)
            }
            if got < chunk.count { return }
        }
    }

    /// The length the answer at the head of the worker's buffer says it has, and whether it is a
    /// watchdog's stop message; nil when its 8 bytes have not arrived or say no length.
    func answerHeader(_ slot: Int) -> (length: Int, stopped: Bool)? {
        let head = workers[slot].head
        guard workers[slot].buffer.count - head >= 8 else { return nil }
        var field: UInt64 = 0
        for shift in 0..<8 { field |= UInt64(workers[slot].buffer[head + shift]) << (8 * shift) }
        guard let length = Int(exactly: field & ~Self.stoppedFlag), length <= Int.max - 8 else {
            return nil
        }
        return (length, field & Self.stoppedFlag != 0)
    }

    /// The first whole answer in the worker's buffer, taken out of it, and when its job ended (nil
    /// for a watchdog's stop message, which stays when `finishedOnly`); nil while it has not all
    /// arrived.
    func takeAnswer(_ slot: Int, finishedOnly: Bool) -> ([UInt8], ended: Double?)? {
        let head = workers[slot].head
        guard workers[slot].buffer.count - head >= 8 else { return nil }
        guard let (length, stopped) = answerHeader(slot), stopped || length >= 8 else {
            workers[slot].closed = true
            return nil
        }
        if stopped, finishedOnly { return nil }
        guard workers[slot].buffer.count - head >= 8 + length else { return nil }
        workers[slot].head += 8 + length
        if stopped { return (Array(workers[slot].buffer[head + 8..<head + 8 + length]), nil) }
        var field: UInt64 = 0
        for shift in 0..<8 { field |= UInt64(workers[slot].buffer[head + 8 + shift]) << (8 * shift) }
        if head == 0, workers[slot].head == workers[slot].buffer.count, length > 1 << 16 {
            // the whole buffer is this answer: it becomes the answer, not a copy beside it
            var answer = workers[slot].buffer
            workers[slot].buffer = []
            workers[slot].head = 0
            answer.removeFirst(16)
            return (answer, Double(bitPattern: field))
        }
        return (Array(workers[slot].buffer[head + 16..<head + 8 + length]), Double(bitPattern: field))
    }

    /// A watchdog's stop frame read: its message, then (after a NUL each) the count of output
    /// bytes not kept and the output kept (watchdog.c); a frame of the message alone has no output.
    static func stop(_ frame: [UInt8]) -> (message: String, output: String, dropped: Int) {
        let parts = frame.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
        let message = String(decoding: parts[0], as: UTF8.self)
        guard parts.count == 3 else { return (message, "", 0) }
        let output = String(decoding: parts[2], as: UTF8.self)
        let dropped = Int(String(decoding: parts[1], as: UTF8.self)) ?? 0
        return (message, output, max(0, dropped))
    }
}
