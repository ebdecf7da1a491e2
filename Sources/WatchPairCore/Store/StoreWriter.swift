import Foundation
import Synchronization

/// The store's writer thread: it takes every write request queued since its last commit and writes them
/// in one transaction (one fsync under `.power`), then resumes each caller from this thread.
///
/// One thread, not a caller's task: the commit starts as soon as the previous one ended, without a hop
/// back to an event loop to pick the next leader, and the callers' tasks stay free for the loop while it
/// runs. Requests are committed in arrival order. Bounds: a batch is at most `maxBatchSize` requests (the
/// rest wait for the next commit); the queue holds one entry per suspended caller, each of whom already
/// holds its request in memory, so it grows with concurrency, never with stored data. Waiting ignores task
/// cancellation: a request, once queued, is committed (or fails with its transaction), never dropped.
///
/// The thread starts with the first request and ends when its owner is released (``stop()``), after
/// writing what is queued.
final class StoreWriter<Request: Sendable, Response: Sendable>: @unchecked Sendable {
    /// What one request came to.
    typealias Outcome = Result<Response, StoreError>
    /// Writes a batch in one transaction: one outcome per request, in order. Runs on the writer thread.
    typealias Commit = @Sendable ([Request]) -> [Outcome]

    private struct Waiter {
        var request: Request
        var commit: Commit
        var continuation: UnsafeContinuation<Outcome, Never>
    }

    /// The most requests written in one transaction.
    let maxBatchSize: Int
    /// The thread's name, for `top -H` and perf.
    let name: String
    /// Guards everything below it; the writer thread waits on it for work.
    private let condition = NSCondition()
    private var queue: [Waiter] = []
    private var started = false
    private var stopping = false
    /// Test hook: called on the writer thread before each commit, with the batch size.
    let beforeCommit = Mutex<(@Sendable (Int) -> Void)?>(nil)

    init(maxBatchSize: Int, name: String) {
        precondition(maxBatchSize > 0, "a batch holds at least one request")
        self.maxBatchSize = maxBatchSize
        self.name = name
    }

    /// Queues `request` and returns its outcome once the transaction holding it has committed (or failed).
    /// `commit` writes the batch this request lands in (every caller of one writer passes the same).
    func submit(_ request: Request, commit: @escaping Commit) async -> Outcome {
        await withUnsafeContinuation { continuation in
            condition.lock()
            queue.append(Waiter(request: request, commit: commit, continuation: continuation))
            let start = !started
            started = true
            condition.signal()
            condition.unlock()
            if start { startThread() }
        }
    }

    /// Ends the thread once what is queued is written. Requests submitted afterwards are never written:
    /// call it when nothing can submit any more (the owner's deinit).
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    /// How many callers are queued and not yet in a running commit.
    var queuedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.count
    }

    /// Blocks the writer thread until at least `count` callers are queued: for a ``beforeCommit`` hook that
    /// holds a commit until the rest of a test's callers arrive, without sleeping.
    func blockUntilQueued(atLeast count: Int) {
        condition.lock()
        while queue.count < count { condition.wait() }
        condition.unlock()
    }

    private func startThread() {
        Thread { [self] in run() }.start()
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
            if let hook = beforeCommit.withLock({ $0 }) { hook(batch.count) }
            let outcomes = batch[0].commit(batch.map(\.request))
            precondition(outcomes.count == batch.count, "commit returned \(outcomes.count) outcomes for \(batch.count)")
            for (waiter, outcome) in zip(batch, outcomes) { waiter.continuation.resume(returning: outcome) }
        }
    }

    /// The next batch, waiting for one; nil once stopped with nothing queued.
    private func nextBatch() -> [Waiter]? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty {
            if stopping { return nil }
            condition.wait()
        }
        let count = min(queue.count, maxBatchSize)
        let batch = Array(queue.prefix(count))
        queue.removeFirst(count)
        return batch
    }
}
