import Foundation
import Logging

/// The persisted request queue at work for a ``WatchConnection``: keeps the ``RequestQueue`` and its
/// ``RequestQueueFile``, queues the requests that cannot go now, carries out the queue's decisions, and
/// flushes it in order.
///
/// - A request is on disk before it counts as queued; a save that fails ends its send with the error.
/// - A queued request's sender waits until it expires (the retry policy's timeout does not run in the
///   queue).
/// - A flush sends every queued request, oldest first, one after the other, when the peer is reachable;
///   a flush asked for while one runs (a reachability change, `connect()`) runs after it. Each request
///   stays in the queue (and on disk) until it is handed on; one that fails during a flush stays for the
///   next one (no retry storm). Handed-on requests leave the file in batches (`flushSaveBatch`) and at
///   the flush's end: a kill -9 before that sends them again, and the receiver answers each repeat from its
///   recorded response without running it (each save is a line and an `fdatasync`: saving each removal
///   would add one to every request of the flush).
/// A type of its own so that ``WatchConnection`` holds the sending side and this the queue's; it calls
/// back into the connection (weakly) for events, timers and deliveries.
@MainActor
final class RequestQueueRunner {
    /// The connection it works for (set by it once initialised).
    weak var connection: WatchConnection?
    private var queue: RequestQueue
    private let file: RequestQueueFile?
    private let logger: Logger
    private var isFlushing = false
    private var flushRequested = false
    /// Requests of the running flush that failed and went back to the queue.
    private var requeued: Set<UUID> = []
    /// Requests handed on since the file was last saved (still in it).
    private var unsavedHandOns = 0
    /// At most this many handed-on requests wait in the file for their removal to be saved.
    private let saveBatch: Int

    init(queue: RequestQueue, file: RequestQueueFile?, saveBatch: Int, logger: Logger) {
        self.queue = queue
        self.file = file
        self.saveBatch = max(1, saveBatch)
        self.logger = logger
    }

    /// The runner of the queue persisted in `configuration.storageDirectory` (read now; in memory
    /// without one), and the queue file if it could not be read and was set aside.
    static func load(_ configuration: WatchConnectionConfiguration, logger: Logger) -> (RequestQueueRunner, StorageSetAside?) {
        let file = configuration.storageDirectory.map(RequestQueueFile.init(directory:))
        let loaded = file?.load(setAsideSuffix: configuration.setAsideSuffix)
        let queue = RequestQueue(capacity: configuration.queueCapacity, expiry: configuration.queueExpiry, requests: loaded?.requests ?? [])
        return (RequestQueueRunner(queue: queue, file: file, saveBatch: configuration.flushSaveBatch, logger: logger), loaded?.setAside)
    }

    /// The queued requests, oldest first.
    var requests: [QueuedRequest] { queue.requests }

    /// Cancels the queued request `id`; its sender gets `.cancelled`.
    func cancel(id: UUID) {
        apply(queue.event(.cancel(id: id)))
    }

    /// Cancels every queued request; their senders get `.cancelled`.
    func cancelAll() {
        apply(queue.event(.cancelAll))
    }

    /// Removes what has expired by now.
    func expire() {
        guard let connection else { return }
        apply(queue.event(.expire(now: connection.time.wallNow)))
    }

    /// Puts a request that cannot go now in the queue (on disk first, when persisted).
    func enqueue(_ outgoing: Outgoing, strategy: DeliveryStrategy) {
        guard let connection else { return }
        let request = QueuedRequest(
            id: outgoing.id, requestType: outgoing.type, strategy: strategy, envelope: outgoing.envelope, enqueuedAt: connection.time.wallNow)
        if queue.requests.contains(where: { $0.id == request.id }) {
            // A flushed request that could not go: it keeps its place and its first enqueuedAt.
            requeued.insert(request.id)
            connection.emit(.requestQueued(type: outgoing.type, size: queue.requests.count), requestID: outgoing.id)
            armExpiry(of: request.id)
            return
        }
        let before = queue
        let action = queue.event(.enqueue(request))
        do {
            try file?.save(queue.requests)
        } catch {
            queue = before
            connection.emit(.deliveryFailed(type: outgoing.type, error: error, willRetry: false), requestID: outgoing.id)
            connection.finish(outgoing.id, .failure(error))
            return
        }
        apply(action, persisted: true)
        connection.emit(.requestQueued(type: outgoing.type, size: queue.requests.count), requestID: outgoing.id)
        armExpiry(of: request.id)
        // A request queued by a running flush failed just now: it waits for the next reachability
        // change, connect() or recovery instead of being flushed again at once.
        if connection.connectionMode == .active && !isFlushing { flush() }
    }

    /// The queued request's sender waits until it expires (the policy's timeout does not run in the queue).
    private func armExpiry(of id: UUID) {
        guard let connection, let request = queue.requests.first(where: { $0.id == id }) else { return }
        let remaining = connection.configuration.queueExpiry - (connection.time.wallNow - request.enqueuedAt)
        connection.armTimer(id, after: remaining) { $0.queueRunner.expire() }
    }

    /// Carries out what the queue decided: persists, reports, ends the senders of removed requests.
    func apply(_ action: RequestQueue.Action, persisted: Bool = false) {
        if action.changed && !persisted { save() }
        guard let connection else { return }
        connection.pendingRequestCount = queue.requests.count
        for request in action.dropped {
            connection.emit(.requestDropped(type: request.requestType, id: request.id))
            connection.finish(request.id, .failure(.dropped))
        }
        for request in action.expired {
            connection.emit(.requestExpired(type: request.requestType, id: request.id))
            connection.finish(request.id, .failure(.expired))
        }
        for request in action.cancelled { connection.finish(request.id, .failure(.cancelled)) }
    }

    /// Writes the queue as it is in memory.
    private func save() {
        do {
            try file?.save(queue.requests)
            unsavedHandOns = 0
        } catch {
            // The in-memory queue stays right; the file catches up at the next successful save.
            logger.warning("request queue could not be saved", metadata: ["error": "\(error)"])
        }
    }

    /// Takes a request its flush handed on out of the queue; saved with the batch (see the type's notes).
    private func handOn(_ id: UUID) {
        let action = queue.event(.handedOn(id: id))
        if action.changed { unsavedHandOns += 1 }
        apply(action, persisted: unsavedHandOns < saveBatch)
    }

    /// Sends every queued request, oldest first, one after the other, when the peer is reachable.
    func flush() {
        // A closed connection leaves the queue on disk as it is, for the next one.
        guard let connection, !connection.tasks.isClosed, connection.currentConnectionStatus.canSendMessages, !queue.requests.isEmpty
        else { return }
        guard !isFlushing else {
            flushRequested = true
            return
        }
        isFlushing = true
        let action = queue.event(.flush(now: connection.time.wallNow))
        apply(action)
        if !action.send.isEmpty { connection.emit(.queueFlushed(count: action.send.count)) }
        connection.tasks.start { [weak self] in
            for request in action.send {
                guard let self, let connection = self.connection else { return }
                // Cancelled, expired or disconnected since the flush began: it is not sent.
                guard queue.requests.contains(where: { $0.id == request.id }) else { continue }
                let outgoing = Outgoing(id: request.id, type: request.requestType, envelope: request.envelope, expectsResponse: true)
                if connection.pending[request.id] == nil {
                    // Restored from disk: nobody waits, but the response still ends it.
                    connection.pending[request.id] = PendingRequest(type: request.requestType, startedAt: connection.time.elapsed())
                }
                let policy = connection.configuration.flushRetryPolicy
                connection.armTimer(request.id, after: policy.timeout) { $0.finish(request.id, .failure(.timeout)) }
                await connection.drive(outgoing, strategy: request.strategy, mode: .queued, policy: policy)
                // Off the disk only from now on: a kill -9 before its save sends it again (answered once).
                if requeued.remove(request.id) == nil, !connection.tasks.isClosed {
                    handOn(request.id)
                }
            }
            guard let self else { return }
            if unsavedHandOns > 0 { save() }
            isFlushing = false
            if flushRequested {
                flushRequested = false
                flush()
            }
        }
    }
}
