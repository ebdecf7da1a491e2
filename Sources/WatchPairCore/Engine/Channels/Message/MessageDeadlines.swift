/// Every message call's reply deadline on one sleeper, instead of a task and a timer per call.
///
/// A call adds its deadline when it starts; ``run(_:)`` (a child of the engine's `run()`) sleeps until
/// the earliest deadline of a call still in progress and feeds `.deadline` to the calls whose time has
/// come. Calls that ended are dropped when they reach the front (no search on every reply). Calls
/// mostly share one timeout, so a new deadline is nearly always the latest and is appended; only a
/// deadline earlier than all the others wakes the sleeper to sleep less.
///
/// Owned by the ``MessageChannel`` and touched only on the engine's actor. Bound: one entry per call in
/// progress, plus calls that ended and have not reached the front yet (at most the calls started within
/// one timeout).
final class MessageDeadlines {
    private struct Entry {
        /// When the call's outcome must be known, as time since the engine started.
        var at: Duration
        var id: UInt64
        /// The call's timeout, for its 7012 message.
        var timeout: Duration
    }

    /// Ascending by `at` from `head`; entries before `head` are spent.
    private var entries: [Entry] = []
    private var head = 0
    /// Fires when a deadline earlier than every other one is added.
    private let earlier = AsyncSignal()
    let time: ElapsedTime

    init(time: ElapsedTime) {
        self.time = time
    }

    /// Arms call `id`'s deadline, `timeout` from now.
    func add(_ id: UInt64, timeout: Duration) {
        let entry = Entry(at: time.now() + timeout, id: id, timeout: timeout)
        var index = entries.endIndex
        while index > head, entries[index - 1].at > entry.at { index -= 1 }
        entries.insert(entry, at: index)
        if index == head { earlier.fire() }
    }

    /// Expires calls as their deadlines pass, until the calling task is cancelled.
    func run(_ engine: isolated PairEngine) async {
        while !Task.isCancelled {
            let seen = earlier.generation
            while head < entries.endIndex, !engine.messages.isInProgress(entries[head].id) { advance() }
            guard head < entries.endIndex else {
                await earlier.wait(after: seen)
                continue
            }
            let first = entries[head]
            if first.at > time.now() {
                await time.sleep(until: first.at, unlessFired: earlier, after: seen)
                continue
            }
            advance()
            engine.messages.event(first.id, .deadline(first.timeout), engine)
        }
    }

    private func advance() {
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

/// Time on the engine's clock since the engine was made, as plain durations: deadlines of calls with
/// different timeouts compare without knowing the clock's instant type.
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
