extension WCSessionProviding {
    /// Hands a request envelope to a background channel (a `.message` that fell back goes by userInfo).
    func transfer(_ envelope: String, on method: DeliveryMethod) throws {
        switch method {
        case .userInfo, .message: try transferUserInfo([WireEnvelope.key: envelope])
        case .context: try updateApplicationContext([WireEnvelope.key: envelope])
        }
    }

    /// Sends `envelope` as one live message; its reply's envelope, or why it failed. Ends early
    /// (`.cancelled`) when the calling task is cancelled.
    func sendRequestMessage(_ envelope: String) async -> Result<String, WatchConnectionError> {
        let slot = ResultSlot()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard slot.install(continuation) else { return }
                sendMessage(
                    [WireEnvelope.key: envelope],
                    replyHandler: { reply in
                        guard let envelope = reply[WireEnvelope.key] else {
                            slot.resume(.failure(.decodingFailed(description: "the reply has no '\(WireEnvelope.key)' key")))
                            return
                        }
                        slot.resume(.success(envelope))
                    },
                    errorHandler: { error in slot.resume(.failure(WatchConnectionError(sessionError: error))) })
            }
        } onCancel: {
            slot.resume(.failure(.cancelled))
        }
    }
}
