/// The request queue's rules, pure: bounded, drop-oldest, expiring, cancellable, flushed in order.
///
/// - At most `capacity` (100) requests; queuing one more drops the oldest, which is returned so the
///   owner fails its sender with `.dropped` and emits `requestDropped`: never silently.
/// - A request older than `expiry` (1 h) is removed by the next `expire` or `flush` and returned as
///   expired (`requestExpired`).
/// - `flush` returns every unexpired request, oldest first; the owner sends them in that order. They
///   stay queued (and on disk) until `handedOn`: a kill -9 during a flush loses none (a request that
///   did arrive is answered from the receiver's recorded response when sent again).
/// - Queuing a request that is already queued (one that failed during its flush) keeps it where it is,
///   with its first `enqueuedAt`: it still expires an hour after it was first queued.
/// - Every change sets `Action.changed`, so the owner persists the queue then.
public struct RequestQueue: Sendable, Hashable {
    /// What happens to the queue.
    public enum Event: Sendable, Hashable {
        /// Queue this request.
        case enqueue(QueuedRequest)
        /// Remove what has expired at `now` (time since 1970).
        case expire(now: Duration)
        /// Cancel one request.
        case cancel(id: UUID)
        /// Cancel every request.
        case cancelAll
        /// Every request to send, oldest first (expired ones are removed first); they stay queued.
        case flush(now: Duration)
        /// The request `id` was handed on (answered, failed for good, or given to a durable channel):
        /// it leaves the queue.
        case handedOn(id: UUID)
    }

    /// What the owner does.
    public struct Action: Sendable, Hashable {
        /// Requests dropped for room: fail them with `.dropped`.
        public var dropped: [QueuedRequest] = []
        /// Requests that expired: fail them with `.expired`.
        public var expired: [QueuedRequest] = []
        /// Requests cancelled: fail them with `.cancelled`.
        public var cancelled: [QueuedRequest] = []
        /// Requests to send now, in this order.
        public var send: [QueuedRequest] = []
        /// Whether the queue changed (persist it).
        public var changed = false
    }

    /// The most requests held.
    public let capacity: Int
    /// How long a request may wait.
    public let expiry: Duration
    /// The waiting requests, oldest first.
    public private(set) var requests: [QueuedRequest]

    /// A queue holding `requests` (e.g. loaded from disk; the newest `capacity` are kept).
    public init(capacity: Int = 100, expiry: Duration = .seconds(3600), requests: [QueuedRequest] = []) {
        self.capacity = max(1, capacity)
        self.expiry = expiry
        self.requests = Array(requests.suffix(self.capacity))
    }

    /// Applies `event`.
    public mutating func event(_ event: Event) -> Action {
        var action = Action()
        switch event {
        case .enqueue(let request):
            guard !requests.contains(where: { $0.id == request.id }) else { break }
            requests.append(request)
            if requests.count > capacity {
                action.dropped = Array(requests.prefix(requests.count - capacity))
                requests.removeFirst(requests.count - capacity)
            }
            action.changed = true
        case .expire(let now):
            action.expired = removeExpired(now: now)
            action.changed = !action.expired.isEmpty
        case .cancel(let id):
            if let index = requests.firstIndex(where: { $0.id == id }) {
                action.cancelled = [requests.remove(at: index)]
                action.changed = true
            }
        case .cancelAll:
            action.cancelled = requests
            action.changed = !requests.isEmpty
            requests = []
        case .flush(let now):
            action.expired = removeExpired(now: now)
            action.send = requests
            action.changed = !action.expired.isEmpty
        case .handedOn(let id):
            let before = requests.count
            requests.removeAll { $0.id == id }
            action.changed = requests.count != before
        }
        return action
    }

    private mutating func removeExpired(now: Duration) -> [QueuedRequest] {
        let expired = requests.filter { now - $0.enqueuedAt >= expiry }
        requests.removeAll { now - $0.enqueuedAt >= expiry }
        return expired
    }
}

import Foundation
