import Synchronization
import Testing
import WatchPairCore
import WatchPairTesting

/// Many waits' deadlines on one sleeper: each live wait expires at its own deadline and only then, waits
/// that ended are skipped, and a deadline earlier than the others wakes the sleeper.
@Suite("deadline queue", .timeLimit(.minutes(3)))
struct DeadlineQueueTests {
    @Test("each live key expires at its own deadline, in deadline order; ended keys never expire")
    func expiresInOrder() async throws {
        let clock = ManualClock()
        let queue = DeadlineQueue<Int>(clock: clock)
        let live = Mutex<Set<Int>>([1, 2, 3, 4])
        let expired = Mutex<[Int]>([])
        let changed = AsyncSignal()
        let runner = Task {
            await queue.run(isLive: { key in live.withLock { $0.contains(key) } }) { key, timeout in
                live.withLock { _ = $0.remove(key) }
                expired.withLock { $0.append(key) }
                #expect(timeout == .seconds(key == 2 ? 1 : 5))
                changed.fire()
            }
        }
        queue.add(1, timeout: .seconds(5))
        queue.add(3, timeout: .seconds(5))
        queue.add(4, timeout: .seconds(5))
        await clock.waitForSleepers(count: 1, until: ManualClock.Instant.zero.advanced(by: .seconds(5)))
        // Earlier than every other deadline: the one sleeper now sleeps until 1 s.
        queue.add(2, timeout: .seconds(1))
        await clock.waitForSleepers(count: 1, until: ManualClock.Instant.zero.advanced(by: .seconds(1)))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        try await withTimeout { try await changed.first { expired.withLock { $0 } == [2] ? () : nil } }
        // Key 3's wait ended meanwhile: at 5 s only 1 and 4 expire.
        live.withLock { _ = $0.remove(3) }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(3_999))
        #expect(expired.withLock { $0 } == [2])
        clock.advance(by: .milliseconds(1))
        try await withTimeout { try await changed.first { expired.withLock { $0 }.count == 3 ? () : nil } }
        #expect(expired.withLock { $0 } == [2, 1, 4])
        // Nothing left: the runner waits for the next deadline without a sleeper on the clock.
        try await withTimeout { try await changed.first { clock.sleeperCount == 0 ? () : nil } }
        runner.cancel()
        await runner.value
    }
}
