import WatchPairWire

extension PairEngine {
    /// Replaces the application context (`updateApplicationContext`); returns once it is durable.
    ///
    /// Returns the stored context with its new version, or nil when `payload` equals the last one sent
    /// (Apple does not deliver an identical update again). An empty dictionary is a real update that
    /// clears the peer's received context. Over the size limit: 7009, nothing stored.
    @discardableResult
    public func updateApplicationContext(_ payload: PlistDictionary) async throws(WCFailure) -> StoredContext? {
        do {
            try configuration.limits.checkContext(payload)
        } catch {
            emit(.payloadRejected, "context refused: \(error.message)", channel: .applicationContext, errorCode: error.code)
            throw error
        }
        let stored: StoredContext?
        do {
            stored = try await store.setSentContext(payload)
        } catch {
            throw error.failure
        }
        guard let stored else { return nil }
        sentContextVersion = max(sentContextVersion, stored.version)
        emit(.contextUpdated, "application context version \(stored.version) set", channel: .applicationContext, seq: stored.version)
        if let link = current {
            try? await link.send(.context(version: stored.version, payload: stored.payload))
        }
        contentSignal.fire()
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

    /// On a new link, sends the current context unless the peer already holds it.
    func resumeContext(on link: Link, peerResume: ResumeState) async throws {
        guard let sent = try await store.sentContext() else { return }
        if peerResume.peerStoreId == store.storeId, peerResume.contextVersion >= sent.version {
            try await contextHeldByPeer(sent.version)
            return
        }
        try await link.send(.context(version: sent.version, payload: sent.payload))
    }

    /// Stores a received context when it is newer, acknowledges it, and tells the app.
    func receiveContext(version: UInt64, payload: PlistDictionary, on link: Link) async -> Bool {
        guard let peer = link.peerHello?.storeId else { return false }
        do {
            if let stored = try await store.receiveContext(from: peer, version: version, payload: payload) {
                receivedContextVersion = stored.version
                emit(.contextReceived, "application context version \(version) received", channel: .applicationContext, seq: version)
                appSignal.fire()
            }
            try await link.send(.contextAck(version: version))
            return true
        } catch {
            logger.error("storing a received context failed", metadata: ["error": "\(error)"])
            await link.close(.endOfStream)
            return false
        }
    }

    func contextAcknowledged(_ version: UInt64) async -> Bool {
        do {
            try await contextHeldByPeer(version)
            return true
        } catch {
            logger.error("recording a context acknowledgement failed", metadata: ["error": "\(error)"])
            return false
        }
    }

    func contextHeldByPeer(_ version: UInt64) async throws {
        guard version > peerContextAck else { return }
        try await store.setPeerContextAck(version)
        peerContextAck = version
        if backoffUntilProgress {
            backoffUntilProgress = false
            reconnect.reset()
        }
        contentSignal.fire()
    }
}
