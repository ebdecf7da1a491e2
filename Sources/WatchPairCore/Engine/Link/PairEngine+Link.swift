import Foundation
import WatchPairWire

extension PairEngine {
    /// Creates a link for a connection this side opened and hands it to `run()` to serve.
    func spawnLink(_ connection: any TransportConnection) throws(WCFailure) -> Link {
        guard let spawner else {
            throw WCFailure(.sessionNotActivated, "the session is not activated")
        }
        let link = makeLink(connection, initiator: role)
        spawner.yield(link)
        return link
    }

    func makeLink(_ connection: any TransportConnection, initiator: Role) -> Link {
        nextLinkId += 1
        let link = Link(id: nextLinkId, connection: connection, initiator: initiator)
        links[link.id] = link
        return link
    }

    /// Serves a connection the peer opened.
    func runAccepted(_ connection: any TransportConnection) async {
        await runLink(makeLink(connection, initiator: role.peer))
    }

    /// Serves one link from hello to close: the reader loop runs here; the handshake watchdog, control
    /// writer, keep-alive and message handlers run as children and end with it.
    func runLink(_ link: Link) async {
        let resume: ResumeState
        do {
            resume = try await store.resumeState()
        } catch {
            logger.error("reading the resume state failed", metadata: ["error": "\(error)"])
            await link.close(.endOfStream)
            linkClosed(link)
            return
        }
        let hello = Hello(
            role: role, pairId: configuration.pairId, storeId: store.storeId,
            launch: configuration.launch, resume: resume
        )
        do {
            try await link.send(.hello(hello))
        } catch {
            // The peer may have written and closed before our hello went out: still read and judge
            // what it sent, so garbage followed by a close is reported as a rejected frame.
            logger.debug("could not send hello", metadata: ["link": "\(link)", "error": "\(error)"])
        }
        await withDiscardingTaskGroup { group in
            group.addTask { await self.watchHandshake(link) }
            group.addTask { await link.writeControlFrames() }
            await readFrames(link, group: &group)
            group.cancelAll()
        }
        await link.close(.endOfStream)
        linkClosed(link)
    }

    /// Closes a link whose handshake does not complete in time; ends as soon as the handshake does.
    nonisolated func watchHandshake(_ link: Link) async {
        let clock = self.clock
        let timeout = configuration.handshakeTimeout
        let expired = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                do {
                    try await clock.sleep(for: timeout)
                    return true
                } catch {
                    return false
                }
            }
            group.addTask {
                _ = await link.established.wait()
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        if expired, link.established.current == nil {
            await reportHandshakeFailure(link, "no handshake within \(timeout)")
        }
    }

    func reportHandshakeFailure(_ link: Link, _ reason: String) async {
        emit(.handshakeFailed, "handshake with peer failed on \(link): \(reason)", errorCode: .invalidParameter)
        await link.close(.handshakeFailed)
    }

    /// Decodes the stream and processes frames in arrival order until the link ends.
    func readFrames(_ link: Link, group: inout DiscardingTaskGroup) async {
        var decoder = FrameDecoder()
        do {
            for try await chunk in link.connection.inbound {
                decoder.append(chunk)
                var frames: [Frame] = []
                var failure: FrameError?
                do {
                    while let frame = try decoder.next() { frames.append(frame) }
                } catch {
                    failure = error
                }
                link.noteReceived(frames.count)
                // Frames before a corrupt one are good and already checksummed: process them first.
                guard await process(frames, on: link, group: &group) else { return }
                if let failure {
                    await reject(failure, on: link)
                    return
                }
            }
            try decoder.finish()
        } catch let error as FrameError {
            await reject(error, on: link)
        } catch {
            logger.debug("link ended", metadata: ["link": "\(link)", "error": "\(error)"])
        }
    }

    /// Reports a frame that could not be decoded, tells the peer, and closes the link.
    func reject(_ error: FrameError, on link: Link) async {
        await reject(error.description, code: error.code, on: link)
    }

    /// Reports a frame that breaks the protocol, tells the peer, and closes the link.
    func reject(_ reason: String, code: WCErrorCode, on link: Link) async {
        emit(.frameRejected, "rejected a frame from the peer: \(reason)", errorCode: code)
        await close(link, telling: .error(relatesTo: 0, code: code, reason: reason), as: .frameRejected(code))
    }

    /// Sends a last frame (the peer's reason to stop) and closes the link. The reader calls this, so the
    /// write is given at most `finalWriteTimeout`: a peer that no longer reads cannot hold the reader.
    func close(_ link: Link, telling frame: Frame, as reason: CloseReason) async {
        let clock = self.clock
        let timeout = configuration.finalWriteTimeout
        await withDiscardingTaskGroup { group in
            group.addTask {
                do {
                    try await clock.sleep(for: timeout)
                    // Closing fails the pending write, which ends the other child.
                    await link.close(reason)
                } catch {}
            }
            // What the reader posted goes first, e.g. the ack for transfers stored before a gap.
            for next in link.takeControlFrames() + [frame] {
                do {
                    try await link.send(next)
                } catch {
                    break
                }
            }
            group.cancelAll()
        }
        await link.close(reason)
    }

    /// Processes decoded frames in order; returns false when the link must close.
    func process(_ frames: [Frame], on link: Link, group: inout DiscardingTaskGroup) async -> Bool {
        var index = frames.startIndex
        while index < frames.endIndex {
            let frame = frames[index]
            guard link.isOpen else { return false }
            if link.peerHello == nil {
                guard case .hello(let hello) = frame else {
                    await reportHandshakeFailure(link, "first frame was not a hello")
                    return false
                }
                guard await establish(link, hello: hello, group: &group) else { return false }
                index += 1
                continue
            }
            // Consecutive userInfo frames are stored in one transaction and acknowledged once.
            if case .userInfo = frame {
                var batch: [ReceivedUserInfo] = []
                while index < frames.endIndex, case .userInfo(let seq, let after, let id, let payload) = frames[index] {
                    batch.append(ReceivedUserInfo(seq: seq, after: after, transferId: id, payload: payload))
                    index += 1
                }
                guard await userInfo.receive(batch, on: link, self) else { return false }
                continue
            }
            guard await handle(frame, on: link, group: &group) else { return false }
            index += 1
        }
        return true
    }

    /// Handles one frame of an established link; returns false when the link must close.
    func handle(_ frame: Frame, on link: Link, group: inout DiscardingTaskGroup) async -> Bool {
        switch frame {
        case .hello:
            await reject("a second hello on an established link", code: .invalidParameter, on: link)
            return false
        case .message(let id, let wantsReply, let body):
            messages.receive(IncomingMessage(id: id, body: body, wantsReply: wantsReply), on: link, group: &group, self)
        case .reply(let id, let body):
            messages.event(id, .answered(.success(body)), self)
        case .error(let relatesTo, let code, let reason) where relatesTo != 0:
            messages.event(relatesTo, .answered(.failure(WCFailure(code, reason))), self)
        case .error(_, let code, let reason):
            emit(.peerDisconnected, "peer closed the link with error \(code.rawValue): \(reason)", errorCode: code)
            await link.close(.peerError(code))
            return false
        case .ack(let upTo):
            return await userInfo.acknowledged(upTo: upTo, on: link, self)
        case .context(let version, let payload):
            return await context.receive(version: version, payload: payload, on: link, self)
        case .contextAck(let version):
            return await context.acknowledged(version, on: link, self)
        case .ping(let nonce):
            link.post(.pong(nonce: nonce))
        case .pong:
            break
        case .userInfo:
            break  // batched by `process`
        }
        return true
    }

    /// Validates the peer's hello, settles a duplicate link, and resumes the durable channels.
    ///
    /// Nothing the hello claims is applied before all of it is checked: a hello claiming transfers or a
    /// context version this side never sent is refused (`handshakeFailed`) and changes nothing.
    func establish(_ link: Link, hello: Hello, group: inout DiscardingTaskGroup) async -> Bool {
        if let refusal = LinkPolicy.refusal(of: hello, role: role, pairId: configuration.pairId)
            ?? context.sender.violation(holding: context.held(by: hello.resume, ownStoreId: store.storeId))
            ?? userInfo.violation(in: hello, self) {
            await refuse(link, refusal)
            return false
        }
        do {
            try await store.notePeerStore(hello.storeId)
            let held = try await store.resumeState().lastUserInfoSeq
            link.peerHello = hello
            try await userInfo.linked(hello, heldUpTo: held, self)
            contentSignal.fire()
            if preferred(link, over: current) {
                current = link
                try await context.resume(held: context.held(by: hello.resume, ownStoreId: store.storeId), self)
            }
        } catch {
            logger.warning("resuming the link failed", metadata: ["error": "\(error)"])
            await link.close(.endOfStream)
            return false
        }
        if link.initiator == role.peer, reconnect.isRefused {
            // The peer opened this link: it is alive and has room (a refusing peer links back once its
            // app made room), so a wait for back pressure ends now.
            backoffUntilProgress = false
            reconnect.reset()
            retrySignal.fire()
        }
        // Linking is the room signal this side owed the peer.
        owesRoom = false
        // After a link the peer closed with an error, only real progress ends the backoff: a peer that
        // keeps refusing (e.g. its inbox is full) must not be reconnected to in a tight loop.
        if !backoffUntilProgress { reconnect.reset() }
        emit(.peerConnected, "linked to \(role.peer.daemonName) (\(hello.launch.rawValue)) on \(link)")
        link.established.complete(true)
        if let interval = configuration.keepAlive.interval {
            group.addTask { await self.keepAlive(link, interval: interval) }
        }
        updateReachability()
        stateSignal.fire()
        contentSignal.fire()
        return true
    }

    /// Which of two established links carries new traffic. Both sides choose alike: the one the phone
    /// opened, else the newer. The other stays open and still serves whatever arrives on it, so a message
    /// in flight on it is answered; nothing is cut off by a race between two connects.
    func preferred(_ candidate: Link, over existing: Link?) -> Bool {
        LinkPolicy.prefers(
            LinkPolicy.Candidate(initiator: candidate.initiator, id: candidate.id),
            over: existing.map { LinkPolicy.Candidate(initiator: $0.initiator, id: $0.id) })
    }

    func refuse(_ link: Link, _ reason: String) async {
        emit(.handshakeFailed, "handshake with peer failed on \(link): \(reason)", errorCode: .invalidParameter)
        await close(link, telling: .error(relatesTo: 0, code: .invalidParameter, reason: reason), as: .handshakeFailed)
    }

    /// Bookkeeping once a link has closed: fail its messages, and let the driver reconnect if needed.
    func linkClosed(_ link: Link) {
        guard links.removeValue(forKey: link.id) != nil else { return }
        link.established.complete(false)
        messages.linkClosed(link, self)
        if current === link {
            // Another established link (two can form when both sides connect at once) takes over.
            current = links.values.filter { $0.peerHello != nil && $0.isOpen }.reduce(nil) { best, candidate in
                preferred(candidate, over: best) ? candidate : best
            }
            if current == nil {
                emit(.peerDisconnected, "link to \(role.peer.daemonName) closed (\(link.closeReason ?? .endOfStream))")
            }
            updateReachability()
        }
        if let reason = link.closeReason, let delay = reconnect.linkClosed(reason, jitter: jitter()) {
            backoffUntilProgress = true
            holdOff = delay
        }
        stateSignal.fire()
        contentSignal.fire()
    }

    /// Sends keep-alives and closes a link whose peer has gone silent (e.g. SIGSTOP).
    nonisolated func keepAlive(_ link: Link, interval: Duration) async {
        var lastSeen = link.framesReceived
        var silent: Duration = .zero
        var nonce: UInt64 = 0
        while link.isOpen {
            do {
                try await clock.sleep(for: interval)
                nonce += 1
                try await link.send(.ping(nonce: nonce))
            } catch {
                return
            }
            let seen = link.framesReceived
            if seen != lastSeen {
                lastSeen = seen
                silent = .zero
                continue
            }
            silent += interval
            if silent >= configuration.keepAlive.timeout {
                await reportUnresponsive(link, silentFor: silent)
                return
            }
        }
    }

    func reportUnresponsive(_ link: Link, silentFor: Duration) async {
        emit(.peerUnresponsive, "peer sent nothing for \(silentFor); closing \(link)", duration: silentFor)
        await link.close(.unresponsive)
    }
}
