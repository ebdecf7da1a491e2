import Foundation
import Synchronization
import WatchPairCore

/// A clock that only moves when a test tells it to.
///
/// Code under test takes `some Clock<Duration>` and sleeps on it as usual; the test calls
/// ``advance(by:)`` or ``advance(to:)`` to move time, which resumes every sleeper whose deadline is
/// reached. Sleepers are resumed in deadline order (ties in the order they started sleeping); each
/// resumed task then runs on its executor, so tasks resumed by one `advance` may run concurrently.
/// To observe a strict order, advance one deadline at a time (``nextDeadline`` tells where).
///
/// Time never moves backwards and starts at ``Instant/zero``. All state is behind one lock, and no
/// continuation is resumed while that lock is held.
///
/// The test kit's self-driving clock (`WCSessionPair(.inMemory, clock: .automatic)`) watches
/// ``activity`` and advances with ``advanceToNextDeadline(ifVersion:)``; a test may still step by hand.
public final class ManualClock: Clock, Sendable {
    /// A point on a ``ManualClock``: the time elapsed since the clock was created.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// How far this instant is from the clock's start.
        public var offset: Swift.Duration

        /// The instant `offset` after the clock's start.
        public init(offset: Swift.Duration) {
            self.offset = offset
        }

        /// The clock's starting instant.
        public static var zero: Instant { Instant(offset: .zero) }

        /// The instant `duration` later (or earlier, if negative).
        public func advanced(by duration: Swift.Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Swift.Duration {
            other.offset - offset
        }

        /// Orders instants by their offset.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        /// The offset, e.g. `+5.0 seconds`.
        public var description: String { "+\(offset)" }
    }

    private struct Sleeper {
        var deadline: Instant
        /// Registration order, so equal deadlines resume first-come first-served.
        var sequence: UInt64
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct SleeperWaiter {
        var count: Int
        /// Counts only the sleepers with exactly this deadline (nil: every sleeper).
        var deadline: Instant?
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now = Instant.zero
        /// Counts changes of the sleepers or of the time, for ``ManualClock/version``.
        var version: UInt64 = 0
        var nextID: UInt64 = 0
        var sleepers: [UInt64: Sleeper] = [:]
        var sleeperWaiters: [UInt64: SleeperWaiter] = [:]

        mutating func makeID() -> UInt64 {
            nextID += 1
            return nextID
        }

        /// The number of sleepers with exactly `deadline`, or of all of them when it is nil.
        func sleeperCount(until deadline: Instant?) -> Int {
            guard let deadline else { return sleepers.count }
            return sleepers.values.filter { $0.deadline == deadline }.count
        }

        /// Removes the waiters satisfied by the current sleepers, for resuming outside the lock.
        mutating func takeSatisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            let ready = sleeperWaiters.filter { $0.value.count <= sleeperCount(until: $0.value.deadline) }
            for id in ready.keys { sleeperWaiters[id] = nil }
            return ready.values.map(\.continuation)
        }
    }

    private let state = Mutex(State())
    /// Fires after every change of the sleepers or of the time (``version`` counts them).
    package let activity = AsyncSignal()

    /// A clock at ``Instant/zero`` with no sleepers.
    public init() {}

    /// The wall time the test kit's pairs give ``Instant/zero``: noon UTC on 2026-01-01. Their engines count
    /// days (the complication budget's) from it, so a test meets a UTC midnight only by stepping 12 hours
    /// or more, never because the real one passed while it ran.
    public static let wallClockOrigin = Date(timeIntervalSince1970: 1_767_268_800)

    /// The current instant; changes only through ``advance(by:)`` and ``advance(to:)``.
    public var now: Instant {
        state.withLock { $0.now }
    }

    /// Always `.zero`: the clock has no granularity of its own.
    public var minimumResolution: Swift.Duration { .zero }

    /// The number of tasks currently sleeping on this clock.
    public var sleeperCount: Int {
        state.withLock { $0.sleepers.count }
    }

    /// The earliest deadline any sleeper waits for, or `nil` when nobody sleeps.
    public var nextDeadline: Instant? {
        state.withLock { $0.sleepers.values.map(\.deadline).min() }
    }

    /// How many times a sleeper started, was resumed or was cancelled, or the time moved: equal
    /// values read at two moments mean nothing happened on this clock in between.
    package var version: UInt64 {
        state.withLock { $0.version }
    }

    /// Suspends until `deadline` is reached by an ``advance(by:)`` or ``advance(to:)``.
    ///
    /// Returns at once when `deadline` is not after ``now``. `tolerance` is ignored. If the calling
    /// task is cancelled (before or while sleeping) the sleeper is removed at once and this throws
    /// `CancellationError`.
    public func sleep(until deadline: Instant, tolerance: Swift.Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { $0.makeID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case due, cancelled, sleeping([CheckedContinuation<Void, Never>]) }
                // Checking cancellation under the lock closes the race with `onCancel`, which takes
                // the same lock: either it runs first (and we see the flag) or it finds the sleeper.
                let outcome: Outcome = state.withLock { state in
                    if Task.isCancelled { return .cancelled }
                    if deadline <= state.now { return .due }
                    state.sleepers[id] = Sleeper(deadline: deadline, sequence: id, continuation: continuation)
                    state.version &+= 1
                    return .sleeping(state.takeSatisfiedWaiters())
                }
                switch outcome {
                case .due: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .sleeping(let waiters):
                    waiters.forEach { $0.resume() }
                    activity.fire()
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state in
                let sleeper = state.sleepers.removeValue(forKey: id)
                if sleeper != nil { state.version &+= 1 }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
            if sleeper != nil { activity.fire() }
        }
    }

    /// Moves time forward by `duration`, resuming every sleeper whose deadline is reached, in deadline order.
    ///
    /// A negative duration does not move time backwards.
    public func advance(by duration: Swift.Duration) {
        let target = state.withLock { $0.now.advanced(by: duration) }
        advance(to: target)
    }

    /// Moves time forward to `instant`, resuming every sleeper whose deadline is reached, in deadline order.
    ///
    /// An `instant` before ``now`` leaves the time unchanged (time never moves backwards).
    public func advance(to instant: Instant) {
        let due: [Sleeper] = state.withLock { state in
            Self.advance(&state, to: instant)
        }
        for sleeper in due { sleeper.continuation.resume() }
        activity.fire()
    }

    /// Moves time to the earliest deadline any sleeper waits for, as ``advance(to:)`` does, unless the
    /// clock changed since ``version`` was `version` (a sleeper started or ended, or time moved).
    ///
    /// Returns the instant reached, or nil when nothing was done (changed, or nobody sleeps). Checking
    /// and advancing under one lock means a deadline registered meanwhile is never skipped unseen.
    package func advanceToNextDeadline(ifVersion version: UInt64) -> Instant? {
        let (reached, due): (Instant?, [Sleeper]) = state.withLock { state in
            guard state.version == version, let next = state.sleepers.values.map(\.deadline).min() else { return (nil, []) }
            return (next, Self.advance(&state, to: next))
        }
        guard reached != nil else { return nil }
        for sleeper in due { sleeper.continuation.resume() }
        activity.fire()
        return reached
    }

    /// Moves `state` to `instant` (never backwards) and removes the sleepers now due, in resume order.
    private static func advance(_ state: inout State, to instant: Instant) -> [Sleeper] {
        if instant > state.now { state.now = instant }
        let now = state.now
        let due = state.sleepers.values.filter { $0.deadline <= now }
        for sleeper in due { state.sleepers[sleeper.sequence] = nil }
        state.version &+= 1
        return due.sorted { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
    }

    /// Suspends until at least `count` tasks are sleeping on this clock.
    ///
    /// Lets a test advance time only after the code under test has started its timer. Woken by
    /// ``sleep(until:tolerance:)`` itself, without polling. Returns at once if `count` tasks already
    /// sleep, and early (without the condition holding) if the calling task is cancelled, so a test's
    /// time limit can end it.
    public func waitForSleepers(count: Int) async {
        await waitForSleepers(count: count, deadline: nil)
    }

    /// Suspends until at least `count` tasks sleep until exactly `deadline`.
    ///
    /// For a test that knows when the code under test will wake (its timer's deadline) while other
    /// code sleeps on the same clock too, so counting all sleepers cannot tell that timer has started.
    /// Otherwise as ``waitForSleepers(count:)``.
    public func waitForSleepers(count: Int = 1, until deadline: Instant) async {
        await waitForSleepers(count: count, deadline: deadline)
    }

    private func waitForSleepers(count: Int, deadline: Instant?) async {
        let id = state.withLock { $0.makeID() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if Task.isCancelled || state.sleeperCount(until: deadline) >= count { return true }
                    state.sleeperWaiters[id] = SleeperWaiter(count: count, deadline: deadline, continuation: continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.sleeperWaiters.removeValue(forKey: id) }
            waiter?.continuation.resume()
        }
    }
}
