import Foundation
import Synchronization

/// Commits the store's queued writes in batches: everything asked while a commit ran is the next
/// transaction (one fsync under `.power`), and each caller is resumed once its transaction committed.
///
/// Where a commit runs. The writer has a thread of its own, which commits whatever is queued as soon as
/// its previous commit ended, so that under load the callers' loops go on reading while it writes and
/// what they read meanwhile is the next batch; it resumes each caller on the loop it asked from
/// (``CurrentEventLoop``: the daemons' engines and their sockets). Every commit is the thread's: a lone
/// request committed on its caller's loop instead (which saved a sequential transfer a thread wake-up
/// while the engine ran off its sockets' loop) blocked that loop for the fsync once the engine ran on it,
/// and at 64 transfers in flight every commit then came alone (BENCHMARKS.md, "userInfo throughput").
///
/// One commit at a time, in arrival order: a committer takes the queue's oldest requests (at most
/// `maxBatchSize` a transaction). Bounds: the queue holds one entry per suspended caller, each of whom
/// already holds its request in memory, so it grows with concurrency, never with stored data. Waiting
/// ignores task cancellation: a request, once queued, is committed (or fails with its transaction), never
/// dropped. The thread starts with its first batch and ends when its owner is released (``stop()``), after
/// writing what is queued.
final class StoreWriter<Request: Sendable, Response: Sendable>: @unchecked Sendable {
    /// What one request came to.
    typealias Outcome = Result<Response, StoreError>
    /// Writes a batch in one transaction: one outcome per request, in order.
    typealias Commit = @Sendable ([Request]) -> [Outcome]

    private struct Waiter {
        var request: Request
        var commit: Commit
        var continuation: UnsafeContinuation<Outcome, Never>
        /// The loop the caller asked from (nil: none), where the thread resumes it.
        var loop: CurrentEventLoop.Enqueue?
    }

    /// The most requests written in one transaction.
    let maxBatchSize: Int
    /// The thread's name, for `top -H` and perf.
    let name: String
    /// Where a caller's loop is found (the thread resumes callers there); nil: callers are resumed from the thread.
    private let loops: CurrentEventLoop?
    /// Guards everything below it; the writer thread waits on it for work.
    private let condition = NSCondition()
    private var queue: [Waiter] = []
    private var started = false
    private var stopping = false
    /// The thread waits on the condition for requests.
    private var threadParked = false
    /// Callers of ``blockUntilQueued(atLeast:)`` waiting on the condition.
    private var queueWatchers = 0
    /// Test hook: called before each commit, on the committing thread, with the batch size.
    let beforeCommit = Mutex<(@Sendable (Int) -> Void)?>(nil)

    init(maxBatchSize: Int, name: String, loops: CurrentEventLoop? = nil) {
        precondition(maxBatchSize > 0, "a batch holds at least one request")
        self.maxBatchSize = maxBatchSize
        self.name = name
        self.loops = loops
    }

    /// Queues `request` and returns its outcome once the transaction holding it has committed (or failed).
    /// `commit` writes the batch this request lands in (every caller of one writer passes the same).
    func submit(_ request: Request, commit: @escaping Commit) async -> Outcome {
        await withUnsafeContinuation { continuation in
            let loop = loops?.current()
            condition.lock()
            queue.append(Waiter(request: request, commit: commit, continuation: continuation, loop: loop))
            if !started {
                started = true
                Thread { [self] in run() }.start()
            }
            wakeWaiters()
            condition.unlock()
        }
    }

    /// Ends the thread once what is queued is written. Requests submitted afterwards are never written:
    /// call it when nothing can submit any more (the owner's deinit).
    func stop() {
        condition.lock()
        stopping = true
        wakeWaiters()
        condition.unlock()
    }

    /// How many callers are queued and not yet in a running commit.
    var queuedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.count
    }

    /// Blocks the committing thread until at least `count` callers are queued: for a ``beforeCommit`` hook
    /// that holds a commit until the rest of a test's callers arrive, without sleeping.
    func blockUntilQueued(atLeast count: Int) {
        condition.lock()
        queueWatchers += 1
        while queue.count < count { condition.wait() }
        queueWatchers -= 1
        condition.unlock()
    }

    private func run() {
        // Named from the thread itself, in the kernel directly: set before `start()`, Foundation's name did
        // not reach the kernel's thread name, and `Thread.current.name` here reached it only when the
        // starting thread had recorded the new thread's handle first (a race: the name was sometimes missing
        // from perf and `top -H`). `/proc/thread-self/comm` names the calling thread (Swift's Glibc module
        // does not export `pthread_setname_np`); the kernel keeps 15 bytes.
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        if descriptor >= 0 {
            let bytes = Array(name.utf8.prefix(15))
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
        }
        while let batch = nextBatch() { commit(batch) }
    }

    /// Wakes the condition's waiters when one of them can act now: the parked thread when something is
    /// queued (or it is to stop), a ``blockUntilQueued(atLeast:)`` caller whenever the queue changed; the
    /// lock is held. Not on every change: the thread, while committing, takes what was queued meanwhile
    /// without being woken.
    private func wakeWaiters() {
        let threadCanAct = threadParked && (stopping || !queue.isEmpty)
        if threadCanAct || queueWatchers > 0 { condition.broadcast() }
    }

    /// The thread's next batch, waiting until something is queued; nil once stopped with nothing queued.
    private func nextBatch() -> [Waiter]? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty {
            if stopping { return nil }
            threadParked = true
            condition.wait()
            threadParked = false
        }
        return takeBatch()
    }

    /// The oldest queued requests, at most a batch; the lock is held.
    private func takeBatch() -> [Waiter] {
        let count = min(queue.count, maxBatchSize)
        let batch = Array(queue.prefix(count))
        queue.removeFirst(count)
        return batch
    }

    /// Commits one batch and resumes its callers. A caller that asked on a loop is resumed from that loop
    /// (one job for the batch's callers there): resumed from this thread, its task went to any of the
    /// process's loops, often not the one holding its sockets, which then had to be woken too.
    private func commit(_ batch: [Waiter]) {
        if let hook = beforeCommit.withLock({ $0 }) { hook(batch.count) }
        let outcomes = batch[0].commit(batch.map(\.request))
        precondition(outcomes.count == batch.count, "commit returned \(outcomes.count) outcomes for \(batch.count)")
        guard let loop = batch.first(where: { $0.loop != nil })?.loop else {
            for (waiter, outcome) in zip(batch, outcomes) { waiter.continuation.resume(returning: outcome) }
            return
        }
        // One job for the batch, on the first caller's loop: a caller from another loop goes on from this one.
        let resumes = zip(batch, outcomes).map { ($0.continuation, $1) }
        loop { for (continuation, outcome) in resumes { continuation.resume(returning: outcome) } }
    }
}
