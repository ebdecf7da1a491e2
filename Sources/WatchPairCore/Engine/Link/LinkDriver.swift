import WatchPairWire

/// Makes the links this side needs: follows the peer's presence, connects when the link is needed and
/// missing, and backs off (``ReconnectStateMachine``) while the peer is away or pushes back.
///
/// Owned by one ``PairEngine`` and touched only on its actor: every method that reads the engine takes
/// it as its `isolated` parameter, so the driver's state and the links stay in one isolation domain.
final class LinkDriver {
    /// Backoff and give-up.
    var reconnect: ReconnectStateMachine
    /// A delay to wait before the next attempt (set when a link closed in a way that calls for backoff).
    var holdOff: Duration?
    /// After a link the peer closed with an error, only real progress (or the peer) ends the backoff.
    var backoffUntilProgress = false
    /// An attempt of this driver is connecting.
    private(set) var connecting = false
    /// What the transport last said of the peer app (the newest probe wins).
    private(set) var presence = PeerPresence(listening: false, running: false)
    private var presenceProbesStarted: UInt64 = 0
    private var presenceProbeApplied: UInt64 = 0
    /// Fires when a wait that new content must not end should end early: the peer's endpoints changed, or
    /// the peer opened a link (it has room again). A full peer would be hammered, an absent one probed, for
    /// every transfer (``LinkPolicy/retryWait(_:peerListening:)``).
    let retrySignal = AsyncSignal()

    init(backoff: BackoffPolicy) {
        reconnect = ReconnectStateMachine(policy: backoff)
    }

    /// Follows the peer's endpoints: a peer socket that appears ends any backoff at once (no polling),
    /// and a foreground app links to a peer app that starts running.
    func watchPeer(_ engine: isolated PairEngine) async {
        // Subscribe first, then look: a change between the two is not missed.
        let changes = engine.transport.peerChanges()
        await probePeer(engine)
        engine.contentSignal.fire()
        for await _ in changes {
            await probePeer(engine)
            reconnect.reset()
            holdOff = nil
            retrySignal.fire()
            engine.contentSignal.fire()
        }
    }

    /// Asks the transport whether the peer app is installed and running. The watcher and the driver
    /// ask concurrently: an older probe that answers last must not overwrite a newer answer (the phone
    /// would then believe a watch app that just started is not running, until something else changes).
    func refreshPresence(_ engine: isolated PairEngine) async {
        presenceProbesStarted += 1
        let probe = presenceProbesStarted
        let presence = await engine.transport.peerPresence()
        guard probe > presenceProbeApplied else { return }
        presenceProbeApplied = probe
        self.presence = presence
    }

    /// ``refreshPresence(_:)``, then reports a change of reachability: what every probe after activation
    /// does. A peer killed without a trace on disk (its socket file stays, inotify sees nothing) is only
    /// seen by asking, so every place that asks must report what it saw.
    func probePeer(_ engine: isolated PairEngine) async {
        await refreshPresence(engine)
        engine.installations.update(engine)
        engine.updateReachability()
    }

    /// Connects to the peer whenever the link is needed and missing, backing off with full jitter while
    /// the peer is away. Connecting is on demand only, so stopping the peer is never undone by an idle side.
    func drive(_ engine: isolated PairEngine) async {
        while !Task.isCancelled {
            let seen = engine.contentSignal.generation
            let peerSeen = retrySignal.generation
            guard needsLink(engine), engine.current == nil, engine.links.isEmpty, !reconnect.isTimedOut else {
                await engine.contentSignal.wait(after: seen)
                continue
            }
            let booked = LinkPolicy.holdOff(holdOff, peerRefusing: reconnect.isRefused, owesRoomNow: owesRoomNow(engine))
            holdOff = nil
            if booked != .none {
                await wait(booked, content: seen, peer: peerSeen, engine)
                continue
            }
            // Presence (or room) alone never justifies launching the peer: check it is still running, or
            // that it still announces content to deliver.
            var mayOpen = true
            if !engine.hasContentForPeer {
                await probePeer(engine)
                guard let reason = linkReason(engine), engine.current == nil else { continue }
                // A link that must not launch the peer is opened only to a process that answers; one that
                // does not (being torn down, or hung) counts as a failed attempt: the next try, after the
                // backoff, probes again.
                if !reason.mayLaunchPeer {
                    mayOpen = LinkPolicy.mayOpen(reason, peerAnswers: await engine.transport.peerAnswers())
                    guard engine.current == nil else { continue }
                }
            }
            if mayOpen, await attempt(engine) { continue }
            switch reconnect.attemptFailed(jitter: engine.jitter()) {
            case .retry(let delay):
                await wait(LinkPolicy.retryWait(delay, peerListening: presence.listening), content: seen, peer: peerSeen, engine)
            case .giveUp:
                engine.emit(
                    .peerUnavailable,
                    "gave up connecting to \(engine.role.peer.daemonName) after \(engine.configuration.backoff.giveUpAfter); content stays queued",
                    errorCode: .notReachable
                )
                engine.stateSignal.fire()
            }
        }
    }

    /// One connection attempt; true when a link was established.
    private func attempt(_ engine: isolated PairEngine) async -> Bool {
        connecting = true
        defer { connecting = false }
        do {
            let link = try engine.spawnLink(try await engine.transport.connect())
            return await link.established.wait() ?? false
        } catch {
            engine.logger.debug("connecting to the peer failed", metadata: ["error": "\(error)"])
            // The peer may have died without a trace on disk: what a failed connect shows counts now.
            await probePeer(engine)
            return false
        }
    }

    /// A link was established. One the peer opened shows it alive and with room (a refusing peer links
    /// back once its app made room), so a wait for back pressure ends now.
    func linked(openedByPeer: Bool) {
        if openedByPeer, reconnect.isRefused {
            backoffUntilProgress = false
            reconnect.reset()
            retrySignal.fire()
        }
        // After a link the peer closed with an error, only real progress ends the backoff: a peer that
        // keeps refusing (e.g. its inbox is full) must not be reconnected to in a tight loop.
        if !backoffUntilProgress { reconnect.reset() }
    }

    /// A link closed for `reason`: back off before the next attempt when the machine says so.
    func linkClosed(_ reason: CloseReason, jitter: Double) {
        if let delay = reconnect.linkClosed(reason, jitter: jitter) {
            backoffUntilProgress = true
            holdOff = delay
        }
    }

    /// New content was accepted: after a give-up, content is a reason to try the peer again at once.
    func contentArrived() {
        if reconnect.isTimedOut { reconnect.reset() }
    }

    /// The peer acknowledged something: after a link it closed with an error, only this ends the backoff.
    func madeProgress() {
        guard backoffUntilProgress else { return }
        backoffUntilProgress = false
        reconnect.reset()
    }

    /// Waits as `holdOff` says: for the content signal after generation `content`, or the retry signal after
    /// generation `peer`, or the delay, whichever comes first.
    private func wait(_ holdOff: LinkPolicy.HoldOff, content: UInt64, peer: UInt64, _ engine: isolated PairEngine) async {
        switch holdOff {
        case .none: return
        case .untilPeerChanges(let delay): await Self.waitForChange(of: retrySignal, after: peer, atMost: delay, clock: engine.clock)
        case .untilContent(let delay): await Self.waitForChange(of: engine.contentSignal, after: content, atMost: delay, clock: engine.clock)
        }
    }

    /// Waits until `signal` fires after `seen` or `delay` passes on `clock`.
    private static func waitForChange(of signal: AsyncSignal, after seen: UInt64, atMost delay: Duration, clock: any Clock<Duration>) async {
        // Races the two without firing `signal`: it is shared (the content signal wakes the pumps), so a
        // timeout here must not look like new content to every other waiter.
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await clock.sleep(for: delay) }
            group.addTask { await signal.wait(after: seen) }
            await group.next()
            group.cancelAll()
        }
    }
}
