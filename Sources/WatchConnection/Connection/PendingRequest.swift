import Foundation

/// A send waiting for its end: where its end goes (its caller waits there; nobody for a request restored
/// from disk), what its deadline does, and its driver.
struct PendingRequest {
    /// The request type's wire name.
    let type: String
    /// When the send started (elapsed time), for `messageSent`'s duration.
    let startedAt: Duration
    /// Where the send's end is delivered, exactly once (``RequestEnding``).
    var ending = ResultSlot<RequestEnding>()
    /// What happens at its deadline (the policy's timeout, or the queue's expiry): ``DeadlineSchedule``.
    var onDeadline: (@MainActor (WatchConnection) -> Void)?
    /// The task driving the delivery, when one does (retries, fallback, queueing); nil while the first
    /// live message is on its way.
    var driver: Task<Void, Never>?
    /// Whether health and the suggestions have counted this request (once per request).
    var outcomeCounted = false
}

/// How a send ended, as its caller learns it.
enum RequestEnding: Sendable {
    /// The first live message was answered (on the session's thread): the caller's connection still has
    /// to count it and report it sent (`completeReply`).
    case replied(Result<String, WatchConnectionError>)
    /// The connection ended it (`finish`): counted and reported already.
    case finished(Result<String, WatchConnectionError>)
}

/// A request ready to go: encoded once, sent as it is by every attempt, fallback and flush.
struct Outgoing: Sendable {
    /// The request id.
    let id: UUID
    /// The request type's wire name.
    let type: String
    /// The encoded envelope.
    let envelope: String
    /// Whether the sender wants a response over a background channel (not a fire-and-forget request).
    let expectsResponse: Bool
}

/// Where a receiver's response goes.
enum ResponseRoute {
    /// The live message's reply handler.
    case reply(@Sendable ([String: String]) -> Void)
    /// A userInfo transfer back (the request came by userInfo or context and wants a response).
    case userInfo
    /// Nowhere (a message sent without a reply handler).
    case none
}

/// A registered handler: decodes the request envelope, runs the app's closure, encodes the response
/// envelope (or an error envelope). Runs off the main actor.
typealias RequestHandler = @Sendable (_ envelope: String, _ header: WireEnvelope.Header) async -> String

/// A caller of `waitForActivation`/`waitForConnection`.
struct StatusWaiter {
    /// What it waits for.
    let isSatisfied: (ConnectionStatus) -> Bool
    /// Resumed exactly once.
    let continuation: CheckedContinuation<Void, any Error>
    /// Its timeout, if any.
    var timer: Task<Void, Never>?
}
