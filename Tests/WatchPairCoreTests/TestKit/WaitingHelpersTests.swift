import Synchronization
import Testing
import WatchPairCore
import WatchPairTesting

/// The test kit's waiting helpers: `withTimeout` stepped on a manual clock, `AsyncSignal.first`, and
/// `withTeardown`.
@Suite("Test kit: withTimeout, AsyncSignal.first, withTeardown", .timeLimit(.minutes(3)))
struct WaitingHelpersTests {
    struct Failure: Error, Equatable {}

    @Test("withTimeout returns the operation's value and leaves no sleeper behind")
    func value() async throws {
        let clock = ManualClock()
        #expect(try await withTimeout(.seconds(5), "a value", clock: clock) { 42 } == 42)
        #expect(clock.sleeperCount == 0)
    }

    @Test("withTimeout fails with TimedOut once the clock reaches the limit, not before, and cancels the operation")
    func timesOut() async throws {
        let clock = ManualClock()
        let never = AsyncSignal()
        let waiting = Task {
            try await withTimeout(.seconds(5), "a signal that never fires", clock: clock) {
                try await never.first { nil as Int? }
            }
        }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(4))
        #expect(clock.sleeperCount == 1, "the limit has not passed yet")
        clock.advance(by: .seconds(1))
        let error = await #expect(throws: TimedOut.self) { try await waiting.value }
        #expect(error?.what == "a signal that never fires")
        #expect(error?.limit == .seconds(5))
    }

    @Test("withTimeout rethrows the operation's error and ends its sleep")
    func operationError() async throws {
        let clock = ManualClock()
        await #expect(throws: Failure()) {
            try await withTimeout(.seconds(5), "a failure", clock: clock) { () async throws -> Int in throw Failure() }
        }
        #expect(clock.sleeperCount == 0)
    }

    @Test("AsyncSignal.first returns the first value the probe finds after a fire; cancelling ends it")
    func signalFirst() async throws {
        let signal = AsyncSignal()
        let value = Mutex<Int?>(nil)
        let probes = Mutex(0)
        let waiter = Task {
            try await signal.first { probes.withLock { $0 += 1 }; return value.withLock { $0 } }
        }
        // Fired before the value is set: the probe runs again and finds nothing yet.
        signal.fire()
        value.withLock { $0 = 7 }
        signal.fire()
        #expect(try await waiter.value == 7)
        #expect(probes.withLock { $0 } >= 1)

        let cancelled = Task { try await signal.first { nil as Int? } }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
    }

    @Test("withTeardown awaits the teardown after the body returns and after it throws, then rethrows")
    func teardown() async throws {
        let log = TestKitLog<String>()
        let value = try await withTeardown {
            log.append("body")
            return 1
        } teardown: {
            log.append("teardown")
        }
        #expect(value == 1)
        await #expect(throws: Failure()) {
            try await withTeardown {
                log.append("failing body")
                throw Failure()
            } teardown: {
                log.append("teardown after failure")
            }
        }
        #expect(log.all == ["body", "teardown", "failing body", "teardown after failure"])
    }
}
