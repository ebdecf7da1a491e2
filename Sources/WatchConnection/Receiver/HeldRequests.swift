import Foundation

/// The receiver's rule for a request of a type that has no handler yet, pure: a request that came by a
/// durable channel (userInfo, or the application context) is held until a handler for its type
/// registers; a live message is refused at once.
///
/// Why: a durable request's sender has handed it on and may be gone (its app killed, its queue
/// flushed); answering "no handler" would lose it when the receiving app registers its handler a
/// moment later (a daemon that starts before its `wcctl serve`). A live message's sender is waiting
/// and can fall back or retry, so it gets `handlerNotRegistered` naming the type at once.
///
/// - Held requests keep their arrival order; a registration releases every held request of its type,
///   oldest first, and the owner starts them in that order.
/// - At most `capacity` (100) are held: holding one more drops the oldest, returned so the owner answers
///   it `handlerNotRegistered` and emits `requestDropped`, never silently.
/// - A request held longer than `expiry` (1 h, the queue's expiry: no sender still waits) is removed by
///   the next event and returned as expired (answered `handlerNotRegistered`, `requestExpired`).
/// - A repeat of a held id is not held twice (`.repeatOfHeld`): it waits for the held run, as a repeat of
///   a running request does. Exactly-once is kept by the owner's ``ResponseLedger``: a held id counts
///   as running there.
/// - A durable request also stays here while its handler runs (`running`), from its arrival (or its
///   release) until `finished`, once its response is recorded: the channel that brought it has
///   acknowledged it, so after a kill -9 these are the only copy, and the next process holds them again
///   (a run cut short by the kill runs again; one whose response was recorded is answered from it).
///   Bound: the runs of the handlers, which the channel's inbox pages bound (the engine's 256 per pass).
/// - Every change sets `Action.changed`, so the owner persists ``persisted`` then.
public struct HeldRequests: Sendable, Hashable {
    /// A held request, as persisted.
    public struct Request: Sendable, Hashable, Codable, Identifiable {
        /// The request id.
        public let id: UUID
        /// The request type's wire name.
        public let requestType: String
        /// The request envelope as it arrived.
        public let envelope: String
        /// Whether its response goes back by userInfo (its sender waits for one).
        public let answersByUserInfo: Bool
        /// When it arrived: time since 1970 on the connection's wall timeline.
        public let arrivedAt: Duration

        /// A held request.
        public init(id: UUID, requestType: String, envelope: String, answersByUserInfo: Bool, arrivedAt: Duration) {
            self.id = id
            self.requestType = requestType
            self.envelope = envelope
            self.answersByUserInfo = answersByUserInfo
            self.arrivedAt = arrivedAt
        }
    }

    /// What happened.
    public enum Event: Sendable, Hashable {
        /// `request` arrived, live (`durable` false) or by userInfo or context, at `request.arrivedAt`;
        /// `handled` says whether its type has a handler.
        case arrived(Request, durable: Bool, handled: Bool)
        /// A handler for `type` registered at `now`.
        case registered(type: String, now: Duration)
        /// Remove what has expired at `now`.
        case expire(now: Duration)
        /// The run of request `id` finished (its response is recorded).
        case finished(id: UUID)
    }

    /// What to do with the request that arrived.
    public enum Disposition: Sendable, Hashable {
        /// Run it now (its type has a handler); also what the other events say.
        case run
        /// It is held.
        case held
        /// A repeat of a held request: answer it when the held one runs.
        case repeatOfHeld
        /// Answer it `handlerNotRegistered` now (a live message).
        case refuse
    }

    /// What the owner does.
    public struct Action: Sendable, Hashable {
        /// What to do with the request that arrived.
        public var disposition = Disposition.run
        /// Held requests to run now, in this order (a registration released them; they are running).
        public var release: [Request] = []
        /// Held requests dropped for room: answer them `handlerNotRegistered`.
        public var dropped: [Request] = []
        /// Held requests that expired: answer them `handlerNotRegistered`.
        public var expired: [Request] = []
        /// Whether the held requests changed (persist them).
        public var changed = false
    }

    /// The most requests held.
    public let capacity: Int
    /// How long a request is held.
    public let expiry: Duration
    /// The held requests, oldest first.
    public private(set) var requests: [Request]
    /// Durable requests whose handler runs now, in the order they started.
    public private(set) var running: [Request] = []

    /// What the owner persists: the held and the running requests (a new process holds them all).
    public var persisted: [Request] { requests + running }

    /// Held requests (e.g. loaded from disk; the newest `capacity` are kept).
    public init(capacity: Int = 100, expiry: Duration = .seconds(3600), requests: [Request] = []) {
        self.capacity = max(1, capacity)
        self.expiry = expiry
        self.requests = Array(requests.suffix(self.capacity))
    }

    /// Applies `event`.
    public mutating func event(_ event: Event) -> Action {
        var action = Action()
        switch event {
        case .arrived(let request, let durable, let handled):
            action.expired = removeExpired(now: request.arrivedAt)
            if persisted.contains(where: { $0.id == request.id }) {
                action.disposition = .repeatOfHeld
            } else if handled {
                action.disposition = .run
                if durable {
                    running.append(request)
                    action.changed = true
                }
            } else if !durable {
                action.disposition = .refuse
            } else {
                action.disposition = .held
                requests.append(request)
                if requests.count > capacity {
                    action.dropped = Array(requests.prefix(requests.count - capacity))
                    requests.removeFirst(requests.count - capacity)
                }
            }
        case .registered(let type, let now):
            action.expired = removeExpired(now: now)
            action.release = requests.filter { $0.requestType == type }
            requests.removeAll { $0.requestType == type }
            running += action.release
        case .expire(let now):
            action.expired = removeExpired(now: now)
        case .finished(let id):
            let before = running.count
            running.removeAll { $0.id == id }
            action.changed = running.count != before
        }
        action.changed = action.changed || action.disposition == .held || !action.release.isEmpty || !action.expired.isEmpty
        return action
    }

    private mutating func removeExpired(now: Duration) -> [Request] {
        let expired = requests.filter { now - $0.arrivedAt >= expiry }
        requests.removeAll { now - $0.arrivedAt >= expiry }
        return expired
    }
}
