import Synchronization

/// The deadlines of many waits on one sleeper, instead of a task and a timer per wait: a message call's
/// reply, a control client's answer.
///
/// A wait adds its deadline when it starts; ``run(isLive:expire:)`` sleeps until the earliest deadline
/// of a wait still live and expires the waits whose time has come. Waits that ended are dropped when they
/// reach the front (no search on every answer). Waits mostly share one timeout, so a new deadline is nearly
/// always the latest and is appended; only a deadline earlier than all the others wakes the sleeper to
/// sleep less.
///
/// Bound: one entry per live wait, plus waits that ended and have not reached the front yet (at most those
/// started within one timeout).
public final class DeadlineQueue<Key: Hashable & Sendable>: Sendable {
    private struct Entry {
        /// When the wait ends, as time since the queue was made.
        var at: Duration
        var key: Key
        /// The wait's timeout, for its error.
        var timeout: Duration
    }

    private struct State {
        /// Ascending by `at` from `head`; entries before `head` are spent.
        var entries: [Entry] = []
        var head = 0

        /// The earliest entry not spent yet.
        var front: Entry? { entries.indices.contains(head) ? entries[head] : nil }

        mutating func advance() {
            head += 1
            if head == entries.endIndex {
                entries.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= entries.count {
                entries.removeFirst(head)
                head = 0
            }
        }
    }

    private let state = Mutex(State())
    /// Fires when a deadline earlier than every other one is added.
    private let earlier = AsyncSignal()
    private let time: ElapsedTime

    /// A queue on `clock`.
    public init(clock: some Clock<Duration>) {
        time = ElapsedTime(clock)
    }

    /// Arms `key`'s deadline, `timeout` from now.
    public func add(_ key: Key, timeout: Duration) {
        let entry = Entry(at: time.now() + timeout, key: key, timeout: timeout)
        let first = state.withLock { state -> Bool in
            var index = state.entries.endIndex
            while index > state.head, state.entries[index - 1].at > entry.at { index -= 1 }
            state.entries.insert(entry, at: index)
            return index == state.head
        }
        if first { earlier.fire() }
    }

    /// Expires waits as their deadlines pass, until the calling task is cancelled: `isLive` says whether
    /// a key still waits (those that do not are dropped), `expire` ends a live wait whose time has come,
    /// with its timeout. Both run in the caller's isolation.
    public func run(
        isolation: isolated (any Actor)? = #isolation,
        isLive: (Key) -> Bool,
        expire: (Key, Duration) -> Void
    ) async {
        while !Task.isCancelled {
            let seen = earlier.generation
            var front = state.withLock { $0.front }
            while let entry = front, !isLive(entry.key) {
                front = state.withLock { state in
                    state.advance()
                    return state.front
                }
            }
            guard let first = front else {
                await earlier.wait(after: seen)
                continue
            }
            if first.at > time.now() {
                await time.sleep(until: first.at, unlessFired: earlier, after: seen)
                continue
            }
            state.withLock { $0.advance() }
            expire(first.key, first.timeout)
        }
    }
}

/// Time on a clock since a start, as plain durations: deadlines of waits with different timeouts compare
/// without knowing the clock's instant type.
struct ElapsedTime: Sendable {
    private let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void

    init<C: Clock<Duration>>(_ clock: C) {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleeper = { try await clock.sleep(until: origin.advanced(by: $0), tolerance: nil) }
    }

    func now() -> Duration { elapsed() }

    /// Sleeps until `deadline` or until `signal` fires after `seen`, whichever is first.
    func sleep(until deadline: Duration, unlessFired signal: AsyncSignal, after seen: UInt64) async {
        let sleeper = self.sleeper
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await sleeper(deadline) }
            group.addTask { await signal.wait(after: seen) }
            await group.next()
            group.cancelAll()
        }
    }
}
