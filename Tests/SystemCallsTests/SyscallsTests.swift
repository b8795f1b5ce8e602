import Foundation
import SystemCalls
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The one EINTR rule and the wrappers over it, against real descriptors.
@Suite(.serialized) struct SyscallsTests {
    /// A pipe: (read end, write end).
    func pipePair() throws -> (Int32, Int32) {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        return (ends[0], ends[1])
    }

    @Test func `writeAll to a full disk names ENOSPC`() throws {
        let full = open("/dev/full", O_WRONLY)
        try #require(full >= 0)
        defer { close(full) }
        #expect(Syscall.writeAll(full, "a line\n") == Errno(ENOSPC))
        #expect(Errno(ENOSPC).description == "No space left on device")
    }

    @Test func `readAll reads to the end and refuses more than its limit`() throws {
        let (reader, writer) = try pipePair()
        defer { close(reader) }
        // Less than a pipe holds (64 KiB), so the write does not wait for a reader.
        #expect(Syscall.writeAll(writer, String(repeating: "x", count: 60_000)) == nil)
        close(writer)
        #expect(try Syscall.readAll(reader, limit: 1 << 20).get().count == 60_000)

        let (small, smallWriter) = try pipePair()
        defer { close(small) }
        #expect(Syscall.writeAll(smallWriter, "0123456789") == nil)
        close(smallWriter)
        #expect(throws: Errno(EFBIG)) { try Syscall.readAll(small, limit: 4).get() }
    }

    @Test func `readFully is false when the file ends first`() throws {
        let (reader, writer) = try pipePair()
        defer { close(reader) }
        #expect(Syscall.writeAll(writer, "abc") == nil)
        close(writer)
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(!buffer.withUnsafeMutableBytes { Syscall.readFully(reader, $0) })
    }

    /// A signal whose handler is installed without SA_RESTART makes a blocked read fail with EINTR;
    /// the wrapper reads again and gets the bytes written after the signal.
    @Test func `a read interrupted by a signal is made again`() throws {
        let (reader, writer) = try pipePair()
        defer { close(reader) }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var previous = sigaction()
        sigaction(SIGUSR1, &action, &previous)
        defer { sigaction(SIGUSR1, &previous, nil) }
        let reading = pthread_self()
        let writing = Thread {
            usleep(50_000)
            pthread_kill(reading, SIGUSR1)  // interrupts the blocked read
            usleep(50_000)
            _ = Syscall.writeAll(writer, "late")
            close(writer)
        }
        writing.start()
        var buffer = [UInt8](repeating: 0, count: 4)
        let count = buffer.withUnsafeMutableBytes { Syscall.read(reader, into: $0) }
        #expect(count == 4)
        #expect(String(decoding: buffer, as: UTF8.self) == "late")
    }

    @Test func `wait returns the child's status and nil for no child`() throws {
        let pid = fork()
        if pid == 0 { _exit(7) }
        let status = try #require(Syscall.wait(for: pid))
        #expect((status >> 8) & 0xff == 7)
        #expect(Syscall.wait(for: pid) == nil)
    }
}
