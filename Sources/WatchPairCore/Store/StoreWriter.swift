import Foundation
import Synchronization

/// Commits the store's queued writes in batches: everything asked while a commit ran is the next
/// transaction (one fsync under `.power`), and each caller is resumed once its transaction committed.
///
/// Where a commit runs. The writer has a thread of its own, which commits whatever is queued as soon as
/// its previous commit ended, so that under load the callers' loops go on reading while it writes and
/// what they read meanwhile is the next batch; it resumes each caller on the loop it asked from. A request
/// alone, made on an event loop (``CurrentEventLoop``: the daemons' engines and their sockets), is committed
/// on that loop instead when the owner allows it (`commitsOnLoop`: the store does under `.power`), by a job
/// queued behind the jobs already queued there: waking the thread to commit it and then the loop to resume
/// its caller cost a sequential transfer about a quarter of its context switches (BENCHMARKS.md, "userInfo
/// throughput"). The loop is blocked for that commit and its fsync; what arrives meanwhile waits in the
/// kernel's socket buffers. When that job finds a second request queued, or a commit running, the requests
/// are the thread's.
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
    /// Whether a request alone is committed on its caller's loop; false: every request is the thread's.
    private let commitsOnLoop: Bool
    /// Guards everything below it; the writer thread waits on it for work.
    private let condition = NSCondition()
    private var queue: [Waiter] = []
    private var started = false
    private var stopping = false
    /// A commit is running, on the thread or on a loop.
    private var committing = false
    /// The queue is the thread's to commit (until it finds it empty).
    private var threadTurn = false
    /// A loop's commit job is queued and has not run yet.
    private var loopJobQueued = false
    /// The thread waits on the condition for its turn.
    private var threadParked = false
    /// Callers of ``blockUntilQueued(atLeast:)`` waiting on the condition.
    private var queueWatchers = 0
    /// Wake-ups sent to the parked thread (tests check that commits on a loop send none).
    private var threadWakeUpsSent = 0
    /// Test hook: called before each commit, on the committing thread, with the batch size.
    let beforeCommit = Mutex<(@Sendable (Int) -> Void)?>(nil)

    init(maxBatchSize: Int, name: String, loops: CurrentEventLoop? = nil, commitsOnLoop: Bool = true) {
        precondition(maxBatchSize > 0, "a batch holds at least one request")
        self.maxBatchSize = maxBatchSize
        self.name = name
        self.loops = loops
        self.commitsOnLoop = commitsOnLoop
    }

    /// Queues `request` and returns its outcome once the transaction holding it has committed (or failed).
    /// `commit` writes the batch this request lands in (every caller of one writer passes the same).
    func submit(_ request: Request, commit: @escaping Commit) async -> Outcome {
        await withUnsafeContinuation { continuation in
            let loop = loops?.current()
            // Where a lone request may commit: its loop, unless every commit is the thread's.
            let commitLoop = commitsOnLoop ? loop : nil
            condition.lock()
            queue.append(Waiter(request: request, commit: commit, continuation: continuation, loop: loop))
            let queueLoopJob = commitLoop != nil && !committing && !loopJobQueued
            if queueLoopJob {
                loopJobQueued = true
            } else if commitLoop == nil || committing {
                handToThread()
            }
            // Otherwise a loop job is queued: it finds this second request and hands both to the thread.
            wakeWaiters()
            condition.unlock()
            if queueLoopJob, let commitLoop { commitLoop { self.commitOnLoop() } }
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

    /// Whether the thread waits for its turn now, and how many wake-ups it has been sent.
    var threadState: (parked: Bool, wakeUpsSent: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (threadParked, threadWakeUpsSent)
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

    /// Gives the queue to the thread, starting it the first time; the lock is held.
    private func handToThread() {
        threadTurn = true
        if !started {
            started = true
            Thread { [self] in run() }.start()
        }
    }

    /// The loop's job: commits the request queued alone, on this loop; hands the queue to the thread when
    /// more than one is queued or a commit is running (whose committer then takes it).
    private func commitOnLoop() {
        condition.lock()
        loopJobQueued = false
        guard !committing, !threadTurn, queue.count == 1 else {
            if !queue.isEmpty { handToThread() }
            wakeWaiters()
            condition.unlock()
            return
        }
        committing = true
        let batch = takeBatch()
        condition.unlock()
        commit(batch)
        condition.lock()
        committing = false
        // Asked meanwhile from another thread or loop: the thread's now.
        if !queue.isEmpty { handToThread() }
        wakeWaiters()
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
        while let batch = nextBatch() {
            commit(batch, resumingOnLoops: true)
            condition.lock()
            committing = false
            wakeWaiters()
            condition.unlock()
        }
    }

    /// Wakes the condition's waiters when one of them can act now: the parked thread when the queue is
    /// its turn and no commit runs (or it is to stop), a ``blockUntilQueued(atLeast:)`` caller whenever the
    /// queue changed; the lock is held. Not on every change: a woken thread that finds nothing to do was a
    /// context switch or two for a sequential transfer whose commits ran on its loop (BENCHMARKS.md,
    /// "userInfo throughput").
    private func wakeWaiters() {
        let threadCanAct = threadParked && (stopping || (threadTurn && !committing && !queue.isEmpty))
        if threadCanAct { threadWakeUpsSent += 1 }
        if threadCanAct || queueWatchers > 0 { condition.broadcast() }
    }

    /// The thread's next batch, waiting until the queue is its own and no commit runs; nil once stopped
    /// with nothing queued.
    private func nextBatch() -> [Waiter]? {
        condition.lock()
        defer { condition.unlock() }
        while committing || !threadTurn || queue.isEmpty {
            if queue.isEmpty {
                threadTurn = false
                if stopping { return nil }
            }
            threadParked = true
            condition.wait()
            threadParked = false
        }
        committing = true
        return takeBatch()
    }

    /// The oldest queued requests, at most a batch; the lock is held.
    private func takeBatch() -> [Waiter] {
        let count = min(queue.count, maxBatchSize)
        let batch = Array(queue.prefix(count))
        queue.removeFirst(count)
        return batch
    }

    /// Commits one batch and resumes its callers. From the thread, a caller that asked on a loop is resumed
    /// from that loop (one job for the batch's callers there): resumed from this thread, its task went
    /// to any of the process's loops, often not the one holding its sockets, which then had to be woken too.
    private func commit(_ batch: [Waiter], resumingOnLoops: Bool = false) {
        if let hook = beforeCommit.withLock({ $0 }) { hook(batch.count) }
        let outcomes = batch[0].commit(batch.map(\.request))
        precondition(outcomes.count == batch.count, "commit returned \(outcomes.count) outcomes for \(batch.count)")
        guard resumingOnLoops, let loop = batch.first(where: { $0.loop != nil })?.loop else {
            for (waiter, outcome) in zip(batch, outcomes) { waiter.continuation.resume(returning: outcome) }
            return
        }
        // One job for the batch, on the first caller's loop: a caller from another loop goes on from this one.
        let resumes = zip(batch, outcomes).map { ($0.continuation, $1) }
        loop { for (continuation, outcome) in resumes { continuation.resume(returning: outcome) } }
    }
}
