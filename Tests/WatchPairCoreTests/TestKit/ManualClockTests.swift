import Testing
import WatchPairTesting

@Suite("ManualClock", .timeLimit(.minutes(3)))
struct ManualClockTests {
    private func at(_ seconds: Int64) -> ManualClock.Instant {
        ManualClock.Instant(offset: .seconds(seconds))
    }

    @Test("starts at zero, with no sleepers")
    func initialState() {
        let clock = ManualClock()
        #expect(clock.now == .zero)
        #expect(clock.minimumResolution == .zero)
        #expect(clock.sleeperCount == 0)
        #expect(clock.nextDeadline == nil)
    }

    @Test("advance resumes only the sleepers whose deadline is reached")
    func advanceResumesOnlyDueSleepers() async throws {
        let clock = ManualClock()
        let woken = TestKitLog<Int64>()
        let sleepers = [3, 1, 2].map { (seconds: Int64) in
            Task {
                try await clock.sleep(until: at(seconds), tolerance: nil)
                woken.append(seconds)
            }
        }
        await clock.waitForSleepers(count: 3)
        #expect(clock.nextDeadline == at(1))

        clock.advance(by: .milliseconds(1500))
        #expect(clock.now == ManualClock.Instant(offset: .milliseconds(1500)))
        #expect(clock.sleeperCount == 2)
        #expect(clock.nextDeadline == at(2))
        try await sleepers[1].value
        #expect(woken.all == [1])

        clock.advance(to: at(2))
        #expect(clock.sleeperCount == 1)
        try await sleepers[2].value
        #expect(woken.all == [1, 2])

        clock.advance(to: at(1))  // Backwards: ignored.
        #expect(clock.now == at(2))
        #expect(clock.sleeperCount == 1)

        clock.advance(by: .seconds(1))
        try await sleepers[0].value
        #expect(woken.all == [1, 2, 3])
        #expect(clock.sleeperCount == 0)
        #expect(clock.nextDeadline == nil)
    }

    @Test("one advance past several deadlines resumes sleepers in deadline order, ties first-come")
    func sleepersResumeInDeadlineOrder() async throws {
        let clock = ManualClock()
        let executor = TestKitSerialExecutor()
        let woken = TestKitLog<String>()
        var sleepers: [Task<Void, any Error>] = []
        // Registered out of order; the two "2s" sleepers register in a known order.
        for (name, seconds) in [("c", Int64(3)), ("b1", 2), ("a", 1), ("b2", 2)] {
            sleepers.append(Task(executorPreference: executor) {
                try await clock.sleep(until: at(seconds), tolerance: nil)
                woken.append(name)
            })
            await clock.waitForSleepers(count: sleepers.count)
        }

        clock.advance(by: .seconds(10))
        for sleeper in sleepers { try await sleeper.value }
        #expect(woken.all == ["a", "b1", "b2", "c"])
    }

    @Test("a deadline already reached returns at once")
    func pastDeadlineReturnsImmediately() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(5))
        try await clock.sleep(until: at(5), tolerance: nil)
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
    }

    @Test("cancelling a sleeper throws CancellationError and removes it")
    func cancellationRemovesSleeper() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        await clock.waitForSleepers(count: 1)

        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
        #expect(clock.nextDeadline == nil)
    }

    @Test("sleeping in an already cancelled task throws at once")
    func sleepInCancelledTask() async {
        let clock = ManualClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test("waitForSleepers returns once enough tasks sleep")
    func waitForSleepersWaitsForCount() async throws {
        let clock = ManualClock()
        await clock.waitForSleepers(count: 0)  // Already satisfied.

        let first = Task { try await clock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers(count: 1)
        #expect(clock.sleeperCount == 1)

        let waiter = Task { () -> Int in
            await clock.waitForSleepers(count: 2)
            return clock.sleeperCount
        }
        let second = Task { try await clock.sleep(for: .seconds(2)) }
        // The waiter can only return once the second sleeper is registered, and nobody wakes before advance.
        #expect(await waiter.value == 2)

        clock.advance(by: .seconds(2))
        try await first.value
        try await second.value
    }

    @Test("waitForSleepers(until:) counts only the sleepers with that deadline")
    func waitForSleepersUntilADeadline() async throws {
        let clock = ManualClock()
        let other = Task { try await clock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers(count: 1)
        let waiter = Task { () -> Int in
            await clock.waitForSleepers(until: .zero.advanced(by: .seconds(7)))
            return clock.sleeperCount
        }
        // A sleeper with another deadline does not satisfy it; the one until 7 s does.
        let seven = Task { try await clock.sleep(for: .seconds(7)) }
        #expect(await waiter.value == 2)
        clock.advance(by: .seconds(7))
        try await other.value
        try await seven.value
    }

    @Test("a cancelled waitForSleepers returns without the sleepers")
    func waitForSleepersCancellation() async {
        let clock = ManualClock()
        let waiter = Task { () -> Int in
            await clock.waitForSleepers(count: 1)
            return clock.sleeperCount
        }
        waiter.cancel()
        #expect(await waiter.value == 0)
    }
}
