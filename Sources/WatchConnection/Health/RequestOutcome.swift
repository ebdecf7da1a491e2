/// What one request tells `HealthMachine` and `SuggestionRules` about the link: each request counts
/// once, however many attempts, fallbacks or flushes it took (docs/WatchConnection.md, "Reading health").
///
/// | how the request went | outcome |
/// |---|---|
/// | a live message of it was answered (also with the receiver's error) | `.succeeded` |
/// | it failed before any attempt: session not activated, peer not reachable (`.immediate`) | `.failed` |
/// | its live message failed for good (out of attempts, or not retryable), whatever came next | `.failed` |
/// | it ended by the policy's timeout or expired in the queue | `.failed` |
/// | cancelled, dropped for room, refused before sending, a request error (7008, 7009, 7010) | not counted |
///
/// The first outcome of a request is the one counted (the connection keeps a flag per request), so a
/// message that failed and then a fallback's timeout count one failure.
public enum RequestOutcome: Sendable, Hashable {
    /// The peer answered the request's live message.
    case succeeded
    /// The request could not reach the peer; `error` is why.
    case failed(WatchConnectionError)

    /// The outcome of a request that failed with `error`, or nil when the failure says nothing of the
    /// link: the caller cancelled it, the queue dropped it for room, the request itself is at fault
    /// (too large, not encodable, 7008/7009/7010), the queue could not be stored, or the peer answered
    /// (`handlerNotRegistered`, `handlerError`, an answer that could not be decoded).
    public init?(failure error: WatchConnectionError) {
        switch error {
        case .notActivated, .notReachable, .timeout, .expired:
            self = .failed(error)
        case .sessionError:
            guard !error.blamesRequest else { return nil }
            self = .failed(error)
        case .cancelled, .dropped, .payloadTooLarge, .encodingFailed, .decodingFailed, .handlerNotRegistered, .handlerError,
            .queueStorageFailed:
            return nil
        }
    }
}
