import WatchPairWire

extension PairEngine {
    /// Replaces the application context (`updateApplicationContext`); returns once it is durable.
    ///
    /// Returns the stored context with its new version, or nil when `payload` equals the last one sent
    /// (Apple does not deliver an identical update again). An empty dictionary is a real update that
    /// clears the peer's received context. Over the size limit: 7009; a peer app that is not installed:
    /// 7006/7018; nothing stored.
    @discardableResult
    public func updateApplicationContext(_ payload: PlistDictionary) async throws(WCFailure) -> StoredContext? {
        let encoded: EncodedDictionary
        do {
            encoded = try configuration.limits.encodeContext(payload)
        } catch {
            emit(.payloadRejected, "context refused: \(error.message)", channel: .applicationContext, errorCode: error.code)
            throw error
        }
        try refuseIfPeerNotInstalled("context", channel: .applicationContext)
        let stored: StoredContext?
        do {
            stored = try await store.setSentContext(encoded)
        } catch {
            throw error.failure
        }
        guard let stored else { return nil }
        _ = context.sender.event(.updated(version: stored.version))
        emit(.contextUpdated, "application context version \(stored.version) set", channel: .applicationContext, seq: stored.version)
        // `ContextChannel.pump` sends it (or a newer one, if more updates come first).
        contentArrived()
        return stored
    }

    /// The context this side last sent (`applicationContext`), empty when none; survives restarts.
    public func applicationContext() async throws(WCFailure) -> PlistDictionary {
        do {
            return try await store.sentContext()?.payload ?? [:]
        } catch {
            throw error.failure
        }
    }

    /// The context last received from the peer (`receivedApplicationContext`), empty when none; survives restarts.
    public func receivedApplicationContext() async throws(WCFailure) -> PlistDictionary {
        do {
            return try await store.receivedContext()?.payload ?? [:]
        } catch {
            throw error.failure
        }
    }
}

extension PairEngine {
    /// The version of the context last received and stored (0: none), held in memory, so a follower
    /// reads the stored context only when it moved.
    public var receivedContextVersion: UInt64 { context.receivedVersion }
}
