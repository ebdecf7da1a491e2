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
        // `pumpContext` sends it (or a newer one, if more updates come first).
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

    /// On a new link, learns from the peer's hello which context it holds: `pumpContext` then sends the
    /// current one unless the peer has it.
    func resumeContext(peerResume: ResumeState) async throws {
        let held = peerResume.peerStoreId == store.storeId ? peerResume.contextVersion : 0
        if held >= sentContextVersion {
            try await contextHeldByPeer(sentContextVersion)
        } else {
            // A peer that lost its store (or never got it) is owed the context again.
            peerContextAck = min(peerContextAck, held)
            contentSignal.fire()
        }
    }

    /// Sends the newest context on the current link whenever the peer lacks it, one frame in flight at a
    /// time: the last value wins, so a burst of updates costs one frame per round trip, not one per update.
    func pumpContext() async {
        var link: Link?
        var inFlight: UInt64 = 0
        while !Task.isCancelled {
            let seen = contentSignal.generation
            if let target = current, target.isOpen {
                if target !== link {
                    link = target
                    inFlight = 0
                }
                if sentContextVersion > peerContextAck, inFlight <= peerContextAck {
                    do {
                        if let sent = try await store.sentContext(), sent.version > peerContextAck, current === target {
                            try await target.send(.context(version: sent.version, payload: sent.payload))
                            inFlight = sent.version
                            continue
                        }
                    } catch {
                        // A closed link or an unreadable store: wait for the next change either way.
                        logger.debug("sending the context failed", metadata: ["error": "\(error)"])
                    }
                }
            }
            await contentSignal.wait(after: seen)
        }
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
            link.post(.contextAck(version: version))
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
