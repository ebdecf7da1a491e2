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
        _ = contextSender.event(.updated(version: stored.version))
        emit(.contextUpdated, "application context version \(stored.version) set", channel: .applicationContext, seq: stored.version)
        // `pumpContext` sends it (or a newer one, if more updates come first).
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

    /// On a new current link, learns from the peer's hello which context it holds (`held`, already
    /// checked against what was sent): `pumpContext` then sends the current one unless the peer has it.
    func resumeContext(held: UInt64) async throws {
        try await apply(contextSender.event(.hello(holds: held)))
        contentSignal.fire()
    }

    /// Sends the newest context on the current link whenever the peer lacks it, one frame in flight at a
    /// time (``ContextSender``): the last value wins, so a burst of updates costs one frame per round trip.
    func pumpContext() async {
        var link: Link?
        while !Task.isCancelled {
            let seen = contentSignal.generation
            if let target = current, target.isOpen {
                if target !== link {
                    link = target
                    _ = contextSender.event(.linkChanged)
                }
                if contextSender.wantsToSend {
                    do {
                        if let sent = try await store.sentContext(), current === target,
                           case .send(let version) = contextSender.event(.readyToSend(newest: sent.version)) {
                            try await target.send(.context(version: version, payload: sent.payload))
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

    /// A contextAck: recorded when newer; one for a version never sent closes the link, applying nothing.
    func contextAcknowledged(_ version: UInt64, on link: Link) async -> Bool {
        do {
            return try await apply(contextSender.event(.ack(version: version)), on: link)
        } catch {
            logger.error("recording a context acknowledgement failed", metadata: ["error": "\(error)"])
            return false
        }
    }

    /// Executes a ``ContextSender`` action; false when the link must close.
    @discardableResult
    func apply(_ action: ContextSender.Action, on link: Link? = nil) async throws -> Bool {
        switch action {
        case .none, .send:
            return true
        case .reject(let reason):
            if let link { await reject(reason, code: .invalidParameter, on: link) }
            return false
        case .recordHeld(let version):
            try await store.setPeerContextAck(version)
            madeProgress()
            contentSignal.fire()
            return true
        }
    }
}
