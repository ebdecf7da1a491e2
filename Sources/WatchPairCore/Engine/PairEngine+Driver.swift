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
                await waitForChange(after: seen, atMost: delay)
                continue
            }
            // Presence alone never justifies launching the peer: check it is still running.
            if !(outstandingCount > 0 || sentContextVersion > peerContextAck) {
                await refreshPeerPresence()
                guard wantsPresenceLink, current == nil else { continue }
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

    /// Waits until `contentSignal` fires after `seen` or `delay` passes on the engine's clock.
    func waitForChange(after seen: UInt64, atMost delay: Duration) async {
        let signal = contentSignal
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

    /// The link for a live message, made on demand where the wake rules allow it (DESIGN.md §3):
    /// a watch message may launch the phone app; a phone message never launches the watch app.
    func linkForMessage() async throws(WCFailure) -> Link {
        guard spawner != nil else {
            throw WCFailure(.sessionNotActivated, "the session is not activated")
        }
        // A link already handshaking (opened by either side) is the one to use.
        if current == nil, let opening = links.values.first(where: { $0.established.current == nil }) {
            _ = await opening.established.wait()
        }
        if current == nil {
            await refreshPeerPresence()
            switch role {
            case .phone:
                guard peerPresence.running else {
                    throw WCFailure(.notReachable, "the watch app is not running")
                }
            case .watch:
                guard peerPresence.installed else {
                    throw WCFailure(.notReachable, "the phone app is not installed")
                }
            }
            let connection: any TransportConnection
            do {
                connection = try await transport.connect()
            } catch {
                throw WCFailure(.notReachable, "cannot connect to \(role.peer.daemonName): \(error)")
            }
            let link = try spawnLink(connection)
            guard await link.established.wait() ?? false else {
                throw WCFailure(.notReachable, "the link to \(role.peer.daemonName) could not be established")
            }
        }
        guard let link = current else {
            throw WCFailure(.notReachable, "the link to \(role.peer.daemonName) closed")
        }
        if role == .phone, link.peerHello?.launch != .foreground {
            throw WCFailure(.notReachable, "the watch app is not running in the foreground")
        }
        return link
    }
}
