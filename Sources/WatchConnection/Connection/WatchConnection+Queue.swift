import Foundation

extension WatchConnection {
    /// The requests waiting in the queue, oldest first (their ids are what `cancelQueuedRequest(id:)` takes).
    public var queuedRequests: [QueuedRequest] { queue.requests }

    /// Cancels every queued request; their senders get `.cancelled`.
    public func cancelAllQueuedRequests() {
        apply(queue.event(.cancelAll))
    }

    /// Cancels the queued request `id` (nothing when it is not queued); its sender gets `.cancelled`.
    public func cancelQueuedRequest(id: UUID) {
        apply(queue.event(.cancel(id: id)))
    }

    /// Puts a request that cannot go now in the queue (on disk first, when persisted).
    func enqueue(_ outgoing: Outgoing, strategy: DeliveryStrategy) {
        let request = QueuedRequest(
            id: outgoing.id, requestType: outgoing.type, strategy: strategy, envelope: outgoing.envelope, enqueuedAt: wallNow)
        let before = queue
        let action = queue.event(.enqueue(request))
        do {
            try queueFile?.save(queue.requests)
        } catch {
            queue = before
            emit(.deliveryFailed(type: outgoing.type, error: error, willRetry: false))
            finish(outgoing.id, .failure(error))
            return
        }
        apply(action, persisted: true)
        emit(.requestQueued(type: outgoing.type, size: queue.requests.count))
        armExpiry(request)
        // A request queued by a running flush failed just now: it waits for the next reachability
        // change, connect() or recovery instead of being flushed again at once (no retry storm).
        if connectionMode == .active && !isFlushing { flushQueue() }
    }

    /// The queued request's sender waits until it expires (the policy's timeout does not run in the queue).
    private func armExpiry(_ request: QueuedRequest) {
        let remaining = configuration.queueExpiry - (wallNow - request.enqueuedAt)
        armTimer(request.id, after: remaining) { connection in
            connection.apply(connection.queue.event(.expire(now: connection.wallNow)))
        }
    }

    /// Carries out what the queue decided: persists, reports, ends the senders of removed requests.
    func apply(_ action: RequestQueue.Action, persisted: Bool = false) {
        if action.changed && !persisted {
            do {
                try queueFile?.save(queue.requests)
            } catch {
                // The in-memory queue stays right; the file catches up at the next successful save.
                logger.warning("request queue could not be saved", metadata: ["error": "\(error)"])
            }
        }
        pendingRequestCount = queue.requests.count
        for request in action.dropped {
            emit(.requestDropped(type: request.requestType, id: request.id))
            finish(request.id, .failure(.dropped))
        }
        for request in action.expired {
            emit(.requestExpired(type: request.requestType, id: request.id))
            finish(request.id, .failure(.expired))
        }
        for request in action.cancelled { finish(request.id, .failure(.cancelled)) }
    }

    /// Sends every queued request, oldest first, one after the other, when the peer is reachable.
    /// A flush asked for while one runs (by a reachability change or `connect()`) runs after it.
    func flushQueue() {
        guard currentConnectionStatus.canSendMessages, !queue.requests.isEmpty else { return }
        guard !isFlushing else {
            flushRequested = true
            return
        }
        isFlushing = true
        let action = queue.event(.flush(now: wallNow))
        apply(action)
        if !action.send.isEmpty { emit(.queueFlushed(count: action.send.count)) }
        tasks.start { [self] in
            for request in action.send {
                let outgoing = Outgoing(id: request.id, type: request.requestType, envelope: request.envelope, expectsResponse: true)
                if pending[request.id] == nil {
                    // Restored from disk: nobody waits, but the response still ends it.
                    pending[request.id] = PendingRequest(type: request.requestType, startedAt: elapsed())
                }
                armTimer(request.id, after: configuration.flushRetryPolicy.timeout) { $0.finish(request.id, .failure(.timeout)) }
                await drive(outgoing, strategy: request.strategy, mode: .queued, policy: configuration.flushRetryPolicy)
            }
            isFlushing = false
            if flushRequested {
                flushRequested = false
                flushQueue()
            }
        }
    }
}
