import WatchConnectivity
import WatchPairTesting

extension WCSession {
    /// Sends `message` with `sendMessage(_:replyHandler:errorHandler:)` and returns the counterpart's
    /// reply as a `Sendable` ``WCPayload``, or throws the error the error handler got (a `WCError`:
    /// 7007 not reachable, 7012 no reply in time, 7014 not delivered, …).
    ///
    /// `let reply = try await pair.phone.sendMessageAwaitingReply(["get": "list"])` compiles in a Swift 6
    /// `@Test`: the reply never leaves the delegate queue as a `[String: Any]`.
    ///
    /// - Parameter limit: The kit's own bound (`TimedOut`) on the real clock, a safety net beyond the
    ///   session's reply timeout. A self-driving pair's clock is driven meanwhile.
    /// - Throws: `WCError` 7010 before sending when `message` is not a property list, as `sendMessage` reports.
    public func sendMessageAwaitingReply(
        _ message: [String: Any], within limit: Duration = SessionRecorder.defaultLimit
    ) async throws -> WCPayload {
        let payload = try WCPayload(message)
        return try await bounded(by: waits, "the reply to \(payload)", within: limit) {
            try await withCheckedThrowingContinuation { continuation in
                self.sendMessage(
                    payload.dictionary,
                    replyHandler: { reply in continuation.resume(with: Result { try WCPayload(reply) }) },
                    errorHandler: { continuation.resume(throwing: $0) })
            }
        }
    }

    /// Sends `data` with `sendMessageData(_:replyHandler:errorHandler:)` and returns the reply, as
    /// ``sendMessageAwaitingReply(_:within:)`` does.
    public func sendMessageDataAwaitingReply(_ data: Data, within limit: Duration = SessionRecorder.defaultLimit) async throws -> Data {
        try await bounded(by: waits, "the reply to \(data.count) bytes", within: limit) {
            try await withCheckedThrowingContinuation { continuation in
                self.sendMessageData(
                    data, replyHandler: { continuation.resume(returning: $0) }, errorHandler: { continuation.resume(throwing: $0) })
            }
        }
    }
}
