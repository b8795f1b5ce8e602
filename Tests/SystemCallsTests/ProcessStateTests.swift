import Foundation
import SystemCalls
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What every layer asks of the process (process.c): the one rule of the `STACKPLAY_*` switches,
/// the flags the signal handlers set, and the thread count a fork checks.
@Suite(.serialized) struct ProcessStateTests {
    @Test func `a switch is on when set to anything but empty and 0`() {
        let name = "STACKPLAY_TEST_SWITCH_\(getpid())"
        defer { unsetenv(name) }
        unsetenv(name)
        #expect(!EnvironmentSwitch.isOn(name), "unset")
        for (value, on) in [
            ("", false), ("0", false), ("1", true), ("yes", true), ("true", true), ("00", true),
        ] {
            setenv(name, value, 1)
            #expect(EnvironmentSwitch.isOn(name) == on, "\(name)=\(value)")
        }
    }

    @Test func `the interruption flags keep what a signal handler stored`() {
        let handler: @convention(c) (Int32) -> Void = { signal in
            Syscall.interruption = signal
            Syscall.signalled = signal
        }
        let previous = signal(SIGUSR2, handler)
        defer {
            signal(SIGUSR2, previous)
            Syscall.interruption = 0
            Syscall.signalled = 0
        }
        Syscall.interruption = 0
        Syscall.signalled = 0
        // delivered to this thread before raise returns, once it is not blocked here
        var only = sigset_t()
        var before = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, SIGUSR2)
        pthread_sigmask(SIG_UNBLOCK, &only, &before)
        raise(SIGUSR2)
        pthread_sigmask(SIG_SETMASK, &before, nil)
        #expect(Syscall.interruption == SIGUSR2)
        #expect(Syscall.signalled == SIGUSR2)
    }

    @Test func `the thread count sees a thread this test starts`() throws {
        let started = DispatchSemaphore(value: 0)
        let finish = DispatchSemaphore(value: 0)
        let thread = Thread {
            started.signal()
            finish.wait()
        }
        thread.start()
        started.wait()
        defer { finish.signal() }
        let count = try #require(Syscall.threadCount())
        #expect(count >= 2)
    }
}
