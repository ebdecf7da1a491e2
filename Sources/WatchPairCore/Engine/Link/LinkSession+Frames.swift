import Foundation
import WatchPairWire

extension LinkSession {
    /// Processes decoded frames in order; returns false when the link must close.
    func process(_ frames: [Frame], group: inout DiscardingTaskGroup, _ engine: isolated PairEngine) async -> Bool {
        var index = frames.startIndex
        while index < frames.endIndex {
            let frame = frames[index]
            guard link.isOpen else { return false }
            if link.peerHello == nil {
                guard case .hello(let hello) = frame else {
                    await handshakeFailed("first frame was not a hello", engine)
                    return false
                }
                guard await establish(hello, group: &group, engine) else { return false }
                index += 1
                continue
            }
            // Consecutive userInfo frames (complication transfers among them) are stored in one transaction
            // and acknowledged once.
            if ReceivedUserInfo(frame) != nil {
                var batch: [ReceivedUserInfo] = []
                while index < frames.endIndex, let received = ReceivedUserInfo(frames[index]) {
                    batch.append(received)
                    index += 1
                }
                guard await engine.userInfo.receive(batch, on: link, engine) else { return false }
                continue
            }
            guard await handle(frame, group: &group, engine) else { return false }
            index += 1
        }
        return true
    }

    /// Handles one frame of an established link; returns false when the link must close.
    private func handle(_ frame: Frame, group: inout DiscardingTaskGroup, _ engine: isolated PairEngine) async -> Bool {
        if handleAtOnce(frame, spawn: { work in group.addTask { await work() } }, engine) { return true }
        switch frame {
        case .hello:
            await reject("a second hello on an established link", code: .invalidParameter, engine)
            return false
        case .error(_, let code, let reason):
            engine.emit(.peerDisconnected, "peer closed the link with error \(code.rawValue): \(reason)", errorCode: code)
            await link.close(.peerError(code))
            return false
        case .ack(let upTo):
            return await engine.userInfo.acknowledged(upTo: upTo, on: link, engine)
        case .context(let version, let payload):
            return await engine.context.receive(version: version, payload: payload, on: link, engine)
        case .contextAck(let version):
            return await engine.context.acknowledged(version, on: link, engine)
        case .fileOffer(let offer):
            return await engine.files.offered(offer, on: link, engine)
        case .fileChunk(let seq, let offset, let bytes):
            return await engine.files.chunk(seq: seq, offset: offset, bytes: bytes, on: link, engine)
        case .fileAck(let seq, let offset):
            return await engine.files.acknowledged(seq: seq, offset: offset, on: link, engine)
        case .fileEnd(let seq, let status):
            return await engine.files.ended(seq: seq, status: status, on: link, engine)
        case .message, .reply, .ping, .pong, .launch:
            return true  // handled at once
        case .userInfo, .complicationUserInfo:
            return true  // batched by `process`
        }
    }

    /// Handles a frame of an established link that needs no waiting (a live message, its answer, a
    /// keep-alive, a launch change): the link's loop does so in place (``LoopBacklog``). False for every
    /// other frame, changing nothing. A message whose handler needs a task gets it from `spawn`.
    func handleAtOnce(
        _ frame: Frame, spawn: (@escaping @Sendable () async -> Void) -> Void, _ engine: isolated PairEngine
    ) -> Bool {
        switch frame {
        case .message(let id, let wantsReply, let body):
            engine.messages.receive(IncomingMessage(id: id, body: body, wantsReply: wantsReply), on: link, spawn: spawn, engine)
        case .reply(let id, let body):
            if engine.quirks.isEmpty || !engine.quirkTakesReply(id, body) {
                engine.messages.event(id, .answered(.success(body)), engine)
            }
        case .error(let relatesTo, let code, let reason) where relatesTo != 0:
            engine.messages.event(relatesTo, .answered(.failure(WCFailure(code, reason))), engine)
        case .ping(let nonce):
            link.post(.pong(nonce: nonce))
        case .pong:
            break
        case .launch(let mode):
            engine.peerLaunchChanged(to: mode, on: link)
        default:
            return false
        }
        return true
    }

    /// Validates the peer's hello, settles a duplicate link, and resumes the durable channels.
    ///
    /// Nothing the hello claims is applied before all of it is checked: a hello claiming transfers or a
    /// context version this side never sent is refused (`handshakeFailed`) and changes nothing.
    private func establish(_ hello: Hello, group: inout DiscardingTaskGroup, _ engine: isolated PairEngine) async -> Bool {
        let store = engine.store
        let contextHeld = engine.context.held(by: hello.resume, ownStoreId: store.storeId)
        let linked = engine.links.values.compactMap { other in
            other !== link && other.isOpen ? other.peerHello.map { (id: other.id, storeId: $0.storeId) } : nil
        }
        if let refusal = LinkPolicy.refusal(of: hello, role: engine.role, pairId: engine.configuration.pairId)
            ?? LinkPolicy.conflict(of: hello, role: engine.role, linked: linked)
            ?? engine.context.sender.violation(holding: contextHeld)
            ?? engine.userInfo.violation(in: hello, engine) {
            engine.emit(.handshakeFailed, "handshake with peer failed on \(link): \(refusal)", errorCode: .invalidParameter)
            await close(telling: .error(relatesTo: 0, code: .invalidParameter, reason: refusal), as: .handshakeFailed, engine)
            return false
        }
        do {
            try await store.notePeerStore(hello.storeId)
            let held = try await store.resumeState().lastUserInfoSeq
            link.peerHello = hello
            try await engine.userInfo.linked(hello, heldUpTo: held, engine)
            engine.contentSignal.fire()
            if engine.preferred(link, over: engine.current) {
                engine.current = link
                try await engine.context.resume(held: contextHeld, engine)
            }
        } catch {
            engine.logger.warning("resuming the link failed", metadata: ["error": "\(error)"])
            await link.close(.endOfStream)
            return false
        }
        engine.driver.linked(openedByPeer: link.initiator == engine.role.peer)
        // Linking is the room signal this side owed the peer.
        engine.owesRoom = false
        engine.emit(.peerConnected, "linked to \(engine.role.peer.daemonName) (\(hello.launch.rawValue)) on \(link)")
        link.established.complete(true)
        // Opened while this link was handshaking: its hello told the peer the launch before that.
        await engine.announceLaunch(on: link)
        if let interval = engine.configuration.keepAlive.interval {
            group.addTask { await self.keepAlive(interval: interval, engine) }
        }
        engine.updateReachability()
        engine.stateSignal.fire()
        engine.contentSignal.fire()
        return true
    }
}
