import Foundation
import WatchPairWire

/// The application-context channel's executor: it owns the ``ContextSender`` machine and the cached
/// received version, pumps the newest context onto the current link and applies what arrives.
///
/// Owned by one ``PairEngine`` and touched only on its actor: every method that reads the engine takes
/// it as its `isolated` parameter, so the channel's state and the links stay in one isolation domain.
final class ContextChannel {
    /// The sending side: versions sent and acknowledged (caches of durable counters, so status and
    /// link decisions do not hit the store).
    var sender: ContextSender
    /// The version last received from the peer.
    var receivedVersion: UInt64

    init(sender: ContextSender, receivedVersion: UInt64) {
        self.sender = sender
        self.receivedVersion = receivedVersion
    }

    /// Whether the peer lacks the context this side last set.
    var hasContentForPeer: Bool { sender.sentVersion > sender.peerAck }

    /// The version of this side's context the peer says it holds (0 when it speaks of another store).
    func held(by resume: ResumeState, ownStoreId: UUID) -> UInt64 {
        resume.peerStoreId == ownStoreId ? resume.contextVersion : 0
    }

    /// On a new current link, learns from the peer's hello which context it holds (`held`, already
    /// checked against what was sent): ``pump(_:)`` then sends the current one unless the peer has it.
    func resume(held: UInt64, _ engine: isolated PairEngine) async throws {
        try await apply(sender.event(.hello(holds: held)), on: nil, engine)
        engine.contentSignal.fire()
    }

    /// See ``PairEngine/updateApplicationContext(_:)``: encodes and checks the payload, stores it with
    /// the next version (nil when identical to the last one), and wakes ``pump(_:)``.
    func update(_ payload: PlistDictionary, _ engine: isolated PairEngine) async throws(WCFailure) -> StoredContext? {
        let encoded: EncodedDictionary
        do {
            encoded = try engine.configuration.limits.encodeContext(payload)
        } catch {
            engine.emit(.payloadRejected, "context refused: \(error.message)", channel: .applicationContext, errorCode: error.code)
            throw error
        }
        try engine.installations.refuseIfPeerNotInstalled("context", channel: .applicationContext, engine)
        let stored: StoredContext?
        do {
            stored = try await engine.store.contexts.setSentContext(encoded)
        } catch {
            throw error.failure
        }
        guard let stored else { return nil }
        _ = sender.event(.updated(version: stored.version))
        engine.emit(.contextUpdated, "application context version \(stored.version) set", channel: .applicationContext, seq: stored.version)
        // ``pump(_:)`` sends it (or a newer one, if more updates come first).
        engine.contentArrived()
        return stored
    }

    /// Sends the newest context on the current link whenever the peer lacks it, one frame in flight at a
    /// time (``ContextSender``): the last value wins, so a burst of updates costs one frame per round trip.
    func pump(_ engine: isolated PairEngine) async {
        var link: Link?
        while !Task.isCancelled {
            let seen = engine.contentSignal.generation
            if let target = engine.current, target.isOpen {
                if target !== link {
                    link = target
                    _ = sender.event(.linkChanged)
                }
                if sender.wantsToSend {
                    do {
                        if let sent = try await engine.store.contexts.sentContextForSending(), engine.current === target,
                           case .send(let version) = sender.event(.readyToSend(newest: sent.version)) {
                            try await target.send(.context(version: version, payload: sent.payload))
                            continue
                        }
                    } catch {
                        // A closed link or an unreadable store: wait for the next change either way.
                        engine.logger.debug("sending the context failed", metadata: ["error": "\(error)"])
                    }
                }
            }
            await engine.contentSignal.wait(after: seen)
        }
    }

    /// Stores a received context when it is newer, acknowledges it, and tells the app.
    func receive(version: UInt64, payload: EncodedDictionary, on link: Link, _ engine: isolated PairEngine) async -> Bool {
        guard let peer = link.peerHello?.storeId else { return false }
        do {
            if let stored = try await engine.store.contexts.receiveContext(from: peer, version: version, payload: payload) {
                receivedVersion = stored.version
                engine.emit(.contextReceived, "application context version \(version) received", channel: .applicationContext, seq: version)
                if !engine.quirks.isEmpty { engine.quirkOnReceivedContext(stored.version) }
                engine.appChanges.fire(.context)
            }
            link.post(.contextAck(version: version))
            return true
        } catch {
            engine.logger.error("storing a received context failed", metadata: ["error": "\(error)"])
            await link.close(.endOfStream)
            return false
        }
    }

    /// A contextAck: recorded when newer; one for a version never sent closes the link, applying nothing.
    func acknowledged(_ version: UInt64, on link: Link, _ engine: isolated PairEngine) async -> Bool {
        do {
            return try await apply(sender.event(.ack(version: version)), on: link, engine)
        } catch {
            engine.logger.error("recording a context acknowledgement failed", metadata: ["error": "\(error)"])
            return false
        }
    }

    /// Executes a ``ContextSender`` action; false when the link must close.
    @discardableResult
    private func apply(_ action: ContextSender.Action, on link: Link?, _ engine: isolated PairEngine) async throws -> Bool {
        switch action {
        case .none, .send:
            return true
        case .reject(let reason):
            if let link { await LinkSession(link).reject(reason, code: .invalidParameter, engine) }
            return false
        case .recordHeld(let version):
            try await engine.store.contexts.setPeerContextAck(version)
            engine.driver.madeProgress()
            engine.contentPendingMayHaveChanged()
            engine.contentSignal.fire()
            return true
        }
    }
}
