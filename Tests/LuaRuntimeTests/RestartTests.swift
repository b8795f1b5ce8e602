import CProcess
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// restart.c: while armed, a crash makes the process exec the program it was given instead of
/// ending; disarmed, or for a signal another process sent, the crash ends it as ever.
@Suite struct RestartTests {
    /// A SIGBUS the kernel raises: a read of a mapped page past the end of the file it maps.
    private static func busError(_ mapped: UnsafeMutableRawPointer) -> UInt8 {
        mapped.load(fromByteOffset: 0, as: UInt8.self)
    }

    /// Forks a child that arms the restart (or not), then runs `crash`; its wait status. The child
    /// starts with the default action for `signal` (not this test process's handlers: Swift's
    /// backtracer or AddressSanitizer's would report the crash, from processes that outlive the
    /// child and hold the test's output open) and its output on /dev/null.
    private static func child(armed: Bool, signal: Int32, _ crash: @escaping () -> Void) throws -> Int32 {
        // everything the child needs is made before the fork: it only calls async-signal-safe code
        let program = strdup("/bin/sh")
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("sh"), strdup("-c"), strdup("exit 42"), nil]
        let envp: [UnsafeMutablePointer<CChar>?] = [nil]
        let pid = argv.withUnsafeBufferPointer { argvBuffer in
            envp.withUnsafeBufferPointer { envpBuffer in
                let pid = fork()
                if pid == 0 {
                    let null = open("/dev/null", O_WRONLY)
                    dup2(null, 1)
                    dup2(null, 2)
                    var action = sigaction()
                    action.__sigaction_handler.sa_handler = SIG_DFL
                    sigaction(signal, &action, nil)
                    if armed {
                        stackplay_restart_arm(program, argvBuffer.baseAddress, envpBuffer.baseAddress)
                    }
                    crash()
                    _exit(3)
                }
                return pid
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    @Test func `an armed process that crashes execs the program it was given, a disarmed one ends`() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bus-\(UUID().uuidString)")
            .path
        let descriptor = open(path, O_RDWR | O_CREAT, 0o600)
        defer {
            close(descriptor)
            unlink(path)
        }
        #expect(ftruncate(descriptor, 4096) == 0)
        let mapped = try #require(mmap(nil, 4096, PROT_READ, MAP_SHARED, descriptor, 0))
        #expect(ftruncate(descriptor, 0) == 0)  // the page now lies past the end of the file
        let crash = { _ = Self.busError(mapped) }
        let armed = try Self.child(armed: true, signal: SIGBUS, crash)
        #expect((armed & 0x7f) == 0 && (armed >> 8) & 0xff == 42, "status \(armed)")
        let plain = try Self.child(armed: false, signal: SIGBUS, crash)
        #expect((plain & 0x7f) == SIGBUS, "status \(plain)")
    }

    @Test func `a signal another process sends is no crash: the process ends by it, armed or not`() throws {
        let sent = { _ = kill(getpid(), SIGILL) }
        let armed = try Self.child(armed: true, signal: SIGILL, sent)
        let plain = try Self.child(armed: false, signal: SIGILL, sent)
        #expect((armed & 0x7f) == SIGILL, "armed: status \(armed)")
        #expect((plain & 0x7f) == SIGILL, "unarmed: status \(plain)")
    }
}
