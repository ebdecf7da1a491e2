import Foundation

extension WatchConnection {
    /// The requests waiting in the queue, oldest first (their ids are what `cancelQueuedRequest(id:)` takes).
    public var queuedRequests: [QueuedRequest] { queueRunner.requests }

    /// Cancels every queued request; their senders get `.cancelled`.
    public func cancelAllQueuedRequests() {
        queueRunner.cancelAll()
    }

    /// Cancels the queued request `id` (nothing when it is not queued); its sender gets `.cancelled`.
    public func cancelQueuedRequest(id: UUID) {
        queueRunner.cancel(id: id)
    }
}
