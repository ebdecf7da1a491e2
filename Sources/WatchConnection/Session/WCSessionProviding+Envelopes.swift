import Foundation

extension WCSessionProviding {
    /// Hands a request envelope to a background channel (a `.message` that fell back goes by userInfo).
    func transfer(_ envelope: String, on method: DeliveryMethod) throws {
        switch method {
        case .userInfo, .message: try transferUserInfo([WireEnvelope.key: envelope])
        case .context: try updateApplicationContext([WireEnvelope.key: envelope])
        }
    }

    /// Sends `envelope` as one live message; `completion` gets its reply's envelope or why it failed,
    /// once, on whichever thread the session answers on.
    func sendRequestMessage(_ envelope: String, completion: @escaping @Sendable (Result<String, WatchConnectionError>) -> Void) {
        sendMessage(
            [WireEnvelope.key: envelope],
            replyHandler: { reply in
                guard let envelope = reply[WireEnvelope.key] else {
                    completion(.failure(.decodingFailed(description: "the reply has no '\(WireEnvelope.key)' key")))
                    return
                }
                completion(.success(envelope))
            },
            errorHandler: { error in completion(.failure(WatchConnectionError(sessionError: error))) })
    }

    /// Sends `envelope` as one live message; its reply's envelope, or why it failed. Ends early
    /// (`.cancelled`) when the calling task is cancelled.
    func sendRequestMessage(_ envelope: String) async -> Result<String, WatchConnectionError> {
        let slot = ResultSlot<Result<String, WatchConnectionError>>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard slot.install(continuation) else { return }
                sendRequestMessage(envelope) { slot.resume($0) }
            }
        } onCancel: {
            slot.resume(.failure(.cancelled))
        }
    }

    /// One ping message, answered by the peer's connection with a pong within `timeout` (slept with
    /// `sleep`, the connection's clock).
    /// - Throws: `.timeout`, the message's failure, or `.decodingFailed` for an answer that is not a pong.
    func probe(timeout: Duration, sleep: @escaping @Sendable (Duration) async throws -> Void) async throws(WatchConnectionError) {
        let ping = WireEnvelope.encode(WireEnvelope.Header(v: WireEnvelope.version, kind: .ping, id: .random()))
        let result = await withTaskGroup(of: Result<String, WatchConnectionError>.self) { group in
            group.addTask { await self.sendRequestMessage(ping) }
            group.addTask {
                do { try await sleep(timeout) } catch { return .failure(.cancelled) }
                return .failure(.timeout)
            }
            let first = await group.next() ?? .failure(.cancelled)
            group.cancelAll()
            return first
        }
        let reply = try result.get()
        guard (try? WireEnvelope.header(of: reply))?.kind == .pong else {
            throw .decodingFailed(description: "the probe's answer is not a pong")
        }
    }
}
