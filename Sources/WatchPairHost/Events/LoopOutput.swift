import Dispatch
import Synchronization

/// The event sink's writes, made on the socket loop's thread in the daemons, which must never wait for a
/// reader: stderr may be a pipe or socket that journald or a terminal reads, and journald's socket may be
/// full; a write that waited there would stall every socket on the loop.
///
/// Each write is first tried without waiting. What would wait, and every write after it until that is
/// done (so the order holds), goes to a thread of this output's own, which writes it waiting as long as it
/// takes. Bound: at most ``limit`` writes wait for that thread; beyond that, writes are dropped and counted
/// (``dropped``), and when the thread has caught up it is told how many with `dropsEnded` (the writer's
/// notice line, as journald reports what it suppressed). ``drain()`` waits for the thread (graceful
/// shutdown: the last events are written).
final class LoopOutput: Sendable {
    /// Writes waiting for the thread by default.
    static let defaultLimit = 4096

    /// Most writes waiting for the thread.
    let limit: Int
    private let queue = DispatchQueue(label: "watchpair.events.output")
    /// Writes handed to the thread and not yet done.
    private let waiting = Mutex(0)
    private let droppedWrites = Atomic<Int>(0)
    /// Drops already handed to `dropsEnded`.
    private let noticedDrops = Atomic<Int>(0)
    /// Runs on the thread, once it has no write left, with the number of writes dropped since it last ran.
    private let dropsEnded: (@Sendable (Int) -> Void)?

    init(limit: Int = defaultLimit, dropsEnded: (@Sendable (Int) -> Void)? = nil) {
        precondition(limit > 0, "an output lets at least one write wait")
        self.limit = limit
        self.dropsEnded = dropsEnded
    }

    /// Writes dropped because ``limit`` writes were waiting.
    var dropped: Int { droppedWrites.load(ordering: .relaxed) }

    /// Does a write: `attempt` does what it can without waiting and returns what is left (nil when done),
    /// which the thread then does; while earlier writes wait for the thread, `attempt` is not tried and
    /// `whole` (the entire write, waiting) queues behind them. One caller at a time (the event sink).
    func write(attempt: () -> (@Sendable () -> Void)?, whole: @escaping @Sendable () -> Void) {
        if waiting.withLock({ $0 }) == 0 {
            if let rest = attempt() { enqueue(rest) }
        } else {
            enqueue(whole)
        }
    }

    /// Waits until the thread has done every write handed to it.
    func drain() {
        queue.sync {}
    }

    private func enqueue(_ work: @escaping @Sendable () -> Void) {
        let accepted = waiting.withLock { waiting -> Bool in
            guard waiting < limit else { return false }
            waiting += 1
            return true
        }
        guard accepted else {
            droppedWrites.add(1, ordering: .relaxed)
            return
        }
        queue.async {
            work()
            let caughtUp = self.waiting.withLock { waiting -> Bool in
                waiting -= 1
                return waiting == 0
            }
            // A drop happens only while writes wait, so the thread always comes back here after it.
            if caughtUp { self.noticeDrops() }
        }
    }

    private func noticeDrops() {
        let total = droppedWrites.load(ordering: .relaxed)
        let before = noticedDrops.exchange(total, ordering: .relaxed)
        if total > before { dropsEnded?(total - before) }
    }
}
