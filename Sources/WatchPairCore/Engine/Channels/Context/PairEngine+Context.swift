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
        try await context.update(payload, self)
    }

    /// The context this side last sent (`applicationContext`), empty when none; survives restarts.
    public func applicationContext() async throws(WCFailure) -> PlistDictionary {
        try await StoreError.reported { () async throws(StoreError) in try await store.contexts.sentContext()?.payload ?? [:] }
    }

    /// The context last received from the peer (`receivedApplicationContext`), empty when none; survives restarts.
    public func receivedApplicationContext() async throws(WCFailure) -> PlistDictionary {
        try await StoreError.reported { () async throws(StoreError) in try await store.contexts.receivedContext()?.payload ?? [:] }
    }
}

extension PairEngine {
    /// The version of the context last received and stored (0: none), held in memory, so a follower
    /// reads the stored context only when it moved.
    public var receivedContextVersion: UInt64 { context.receivedVersion }
}
