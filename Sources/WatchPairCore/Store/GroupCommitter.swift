import Synchronization

/// Batches concurrent write requests into shared transactions (group commit): one fsync for many callers.
///
/// Leader/follower: the first caller to arrive while no commit is running becomes the leader; it takes up
/// to `maxBatchSize` queued requests (itself first), commits them with the `commit` function it was given,
/// hands each follower its outcome, and then promotes the oldest still-queued caller to leader. Callers
/// arriving while a commit runs queue and are written together by the next leader. Requests are committed
/// in arrival order; no task is spawned (each leader is a caller's own task).
///
/// Bounds: a batch is at most `maxBatchSize` requests (the rest wait for the next commit). The queue holds
/// one entry per suspended caller — its bound is the number of concurrent callers, each of whom already holds
/// its request in memory — so it grows with concurrency, never with stored data. Waiting ignores task
/// cancellation: a request, once queued, is committed (or fails with the transaction), never dropped.
final class GroupCommitter<Request: Sendable, Response: Sendable>: Sendable {
    /// What one request came to.
    typealias Outcome = Result<Response, StoreError>

    private enum Signal: Sendable {
        case done(Outcome)
        case lead
    }

    private struct Waiter: Sendable {
        var id: UInt64
        var request: Request
        var continuation: CheckedContinuation<Signal, Never>
    }

    private struct QueueWatcher: Sendable {
        var threshold: Int
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State: Sendable {
        var queue: [Waiter] = []
        var leaderActive = false
        var nextId: UInt64 = 0
        var watchers: [QueueWatcher] = []
    }

    /// The most requests written in one transaction.
    let maxBatchSize: Int
    private let state = Mutex(State())
    /// Test hook: awaited by each leader before it commits, with the batch size.
    let beforeCommit = Mutex<(@Sendable (Int) async -> Void)?>(nil)

    init(maxBatchSize: Int) {
        precondition(maxBatchSize > 0, "a batch holds at least one request")
        self.maxBatchSize = maxBatchSize
    }

    /// Queues `request` and returns its outcome once the transaction holding it has committed (or failed).
    /// `commit` must return one outcome per request, in order; it runs only if this caller becomes leader.
    func submit(_ request: Request, commit: @Sendable ([Request]) async -> [Outcome]) async -> Outcome {
        let id = state.withLock { state in
            state.nextId += 1
            return state.nextId
        }
        let signal = await withCheckedContinuation { (continuation: CheckedContinuation<Signal, Never>) in
            let (lead, satisfied) = state.withLock { state in
                state.queue.append(Waiter(id: id, request: request, continuation: continuation))
                let count = state.queue.count
                let satisfied = state.watchers.filter { $0.threshold <= count }
                state.watchers.removeAll { $0.threshold <= count }
                if state.leaderActive { return (false, satisfied) }
                state.leaderActive = true
                return (true, satisfied)
            }
            for watcher in satisfied { watcher.continuation.resume() }
            if lead { continuation.resume(returning: .lead) }
        }
        switch signal {
        case .done(let outcome):
            return outcome
        case .lead:
            return await lead(id: id, commit: commit)
        }
    }

    private func lead(id: UInt64, commit: @Sendable ([Request]) async -> [Outcome]) async -> Outcome {
        let batch = state.withLock { state in
            let count = min(state.queue.count, maxBatchSize)
            let batch = Array(state.queue.prefix(count))
            state.queue.removeFirst(count)
            return batch
        }
        // The leader is always the oldest queued caller, so it is first in its own batch.
        precondition(batch.first?.id == id, "group commit leader is not first in its batch")
        if let hook = beforeCommit.withLock({ $0 }) { await hook(batch.count) }
        let outcomes = await commit(batch.map(\.request))
        precondition(outcomes.count == batch.count, "commit returned \(outcomes.count) outcomes for \(batch.count)")
        for (waiter, outcome) in zip(batch, outcomes).dropFirst() {
            waiter.continuation.resume(returning: .done(outcome))
        }
        let next = state.withLock { state -> Waiter? in
            if let next = state.queue.first { return next }
            state.leaderActive = false
            return nil
        }
        next?.continuation.resume(returning: .lead)
        return outcomes[0]
    }

    /// How many callers are queued and not yet in a running commit.
    var queuedCount: Int { state.withLock { $0.queue.count } }

    /// Returns once at least `count` callers are queued (for tests that need a full queue, without sleeping).
    func waitUntilQueued(atLeast count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if state.queue.count >= count { return true }
                state.watchers.append(QueueWatcher(threshold: count, continuation: continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
