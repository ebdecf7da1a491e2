import WatchPairWire

extension PairEngine {
    /// Follows the peer's endpoints: a peer socket that appears ends any backoff at once (no polling),
    /// and a foreground app links to a peer app that starts running.
    func watchPeer() async {
        // Subscribe first, then look: a change between the two is not missed.
        let changes = transport.peerChanges()
        await refreshPeerPresence()
        updateReachability()
        contentSignal.fire()
        for await _ in changes {
            await refreshPeerPresence()
            reconnect.reset()
            holdOff = nil
            updateReachability()
            retrySignal.fire()
            contentSignal.fire()
        }
    }

    /// Asks the transport whether the peer app is installed and running. The watcher and the driver
    /// ask concurrently: an older probe that answers last must not overwrite a newer answer (the phone
    /// would then believe a watch app that just started is not running, until something else changes).
    func refreshPeerPresence() async {
        presenceProbesStarted += 1
        let probe = presenceProbesStarted
        let presence = await transport.peerPresence()
        guard probe > presenceProbeApplied else { return }
        presenceProbeApplied = probe
        peerPresence = presence
    }

    /// Connects to the peer whenever the link is needed and missing, backing off with full jitter while
    /// the peer is away. Connecting is on demand only, so stopping the peer is never undone by an idle side.
    func driveLink() async {
        while !Task.isCancelled {
            let seen = contentSignal.generation
            guard needsLink, current == nil, links.isEmpty, !reconnect.isTimedOut else {
                await contentSignal.wait(after: seen)
                continue
            }
            if let delay = holdOff {
                holdOff = nil
                if reconnect.isRefused {
                    // Back pressure: new content must not cut the wait short, or a full peer is hammered.
                    await waitForChange(of: retrySignal, after: retrySignal.generation, atMost: delay)
                } else {
                    await waitForChange(after: seen, atMost: delay)
                }
                continue
            }
            // Presence (or room) alone never justifies launching the peer: check it is still running.
            if !hasContentForPeer {
                await refreshPeerPresence()
                guard wantsPresenceLink || owesRoomNow, current == nil else { continue }
            }
            if await attemptLink() { continue }
            switch reconnect.attemptFailed(jitter: jitter()) {
            case .retry(let delay):
                await waitForChange(after: seen, atMost: delay)
            case .giveUp:
                emit(
                    .peerUnavailable,
                    "gave up connecting to \(role.peer.daemonName) after \(configuration.backoff.giveUpAfter); content stays queued",
                    errorCode: .notReachable
                )
                stateSignal.fire()
            }
        }
    }

    /// One connection attempt; true when a link was established.
    func attemptLink() async -> Bool {
        connecting = true
        defer { connecting = false }
        do {
            let link = try spawnLink(try await transport.connect())
            return await link.established.wait() ?? false
        } catch {
            logger.debug("connecting to the peer failed", metadata: ["error": "\(error)"])
            return false
        }
    }

    /// New content was accepted: after a give-up, content is a reason to try the peer again at once.
    func contentArrived() {
        if reconnect.isTimedOut { reconnect.reset() }
        contentSignal.fire()
    }

    /// The peer acknowledged something: after a link it closed with an error, only this ends the backoff.
    func madeProgress() {
        guard backoffUntilProgress else { return }
        backoffUntilProgress = false
        reconnect.reset()
    }

    /// Waits until `signal` (by default `contentSignal`) fires after `seen` or `delay` passes on the
    /// engine's clock.
    func waitForChange(of signal: AsyncSignal? = nil, after seen: UInt64, atMost delay: Duration) async {
        let signal = signal ?? contentSignal
        let clock = self.clock
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                try? await clock.sleep(for: delay)
                signal.fire()
            }
            await signal.wait(after: seen)
            group.cancelAll()
        }
    }
}
