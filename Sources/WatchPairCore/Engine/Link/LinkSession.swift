import Foundation
import WatchPairWire

/// Serves one link from hello to close: sends this side's hello, reads and decodes the stream, hands
/// each frame to its channel, and closes the link when the protocol is broken or the peer goes silent.
///
/// A value holding only the link: what it changes lives in the engine and its channels, reached through
/// the `isolated` engine parameter, so everything consistent with the links stays on the engine's actor.
struct LinkSession: Sendable {
    let link: Link

    init(_ link: Link) {
        self.link = link
    }

    /// Runs the link until it closes: the reader loop runs here; the handshake watchdog, control
    /// writer, keep-alive and message handlers run as children and end with it.
    func run(_ engine: isolated PairEngine) async {
        let resume: ResumeState
        do {
            resume = try await engine.store.resumeState()
        } catch {
            engine.logger.error("reading the resume state failed", metadata: ["error": "\(error)"])
            await link.close(.endOfStream)
            engine.linkClosed(link)
            return
        }
        let hello = Hello(
            role: engine.role, pairId: engine.configuration.pairId, storeId: engine.store.storeId,
            launch: engine.launch, resume: resume
        )
        link.announcedLaunch = hello.launch
        do {
            try await link.send(.hello(hello))
        } catch {
            // The peer may have written and closed before our hello went out: still read and judge
            // what it sent, so garbage followed by a close is reported as a rejected frame.
            engine.logger.debug("could not send hello", metadata: ["link": "\(link)", "error": "\(error)"])
        }
        let link = self.link
        await withDiscardingTaskGroup { group in
            group.addTask { await self.watchHandshake(engine) }
            group.addTask { await link.writeControlFrames() }
            await readFrames(group: &group, engine)
            group.cancelAll()
        }
        await link.close(.endOfStream)
        engine.linkClosed(link)
    }

    /// Closes a link whose handshake does not complete in time; ends as soon as the handshake does.
    private func watchHandshake(_ engine: PairEngine) async {
        let clock = engine.clock
        let timeout = engine.configuration.handshakeTimeout
        let link = self.link
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
            await handshakeFailed("no handshake within \(timeout)", engine)
        }
    }

    func handshakeFailed(_ reason: String, _ engine: isolated PairEngine) async {
        engine.emit(.handshakeFailed, "handshake with peer failed on \(link): \(reason)", errorCode: .invalidParameter)
        await link.close(.handshakeFailed)
    }

    /// Processes the stream's frames in arrival order until the link ends: the socket's event loop hands
    /// each read over and handles in place what needs no waiting (``LoopBacklog``); this task takes the rest.
    private func readFrames(group: inout DiscardingTaskGroup, _ engine: isolated PairEngine) async {
        let backlog = LoopBacklog(decoder: FrameDecoder())
        let (session, link) = (self, self.link)
        let end = await backlog.read(
            link.connection, on: engine.executor, isolation: engine,
            inPlace: { frame in engine.assumeIsolated { engine in session.handleInPlace(frame, engine) } }
        ) { frames in
            link.noteReceived(frames.count)
            return await process(frames, group: &group, engine)
        }
        switch end {
        case .stopped:
            break
        case .failed(let error):
            await reject(error, engine)
        case .closed:
            do throws(FrameError) {
                try backlog.decoder.finish()
            } catch {
                await reject(error, engine)
            }
        case .broken(let error):
            engine.logger.debug("link ended", metadata: ["link": "\(link)", "error": "\(error)"])
        }
    }

    /// A frame on the socket's loop, which runs the engine: handled there when it needs no waiting and
    /// the link is established; false leaves it (and what follows) to the reader task.
    private func handleInPlace(_ frame: Frame, _ engine: isolated PairEngine) -> Bool {
        guard link.peerHello != nil, link.isOpen, handleAtOnce(frame, spawn: { engine.work.start($0) }, engine) else {
            return false
        }
        link.noteReceived(1)
        return true
    }

    /// Reports a frame that could not be decoded, tells the peer, and closes the link.
    private func reject(_ error: FrameError, _ engine: isolated PairEngine) async {
        await reject(error.description, code: error.code, engine)
    }

    /// Reports a frame that breaks the protocol, tells the peer, and closes the link.
    func reject(_ reason: String, code: WCErrorCode, _ engine: isolated PairEngine) async {
        engine.emit(.frameRejected, "rejected a frame from the peer: \(reason)", errorCode: code)
        await close(telling: .error(relatesTo: 0, code: code, reason: reason), as: .frameRejected(code), engine)
    }

    /// Sends a last frame (the peer's reason to stop) and closes the link. The reader calls this, so the
    /// write is given at most `finalWriteTimeout`: a peer that no longer reads cannot hold the reader.
    func close(telling frame: Frame, as reason: CloseReason, _ engine: isolated PairEngine) async {
        let clock = engine.clock
        let timeout = engine.configuration.finalWriteTimeout
        let link = self.link
        // Nothing of any other writer (the channels' pumps, a reply) may follow the last frame.
        link.beginClosing()
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
                    try await link.sendLast(next)
                } catch {
                    break
                }
            }
            group.cancelAll()
        }
        await link.close(reason)
    }

    /// Sends keep-alives and closes a link whose peer has gone silent (e.g. SIGSTOP).
    func keepAlive(interval: Duration, _ engine: PairEngine) async {
        var lastSeen = link.framesReceived
        var silent: Duration = .zero
        var nonce: UInt64 = 0
        while link.isOpen {
            do {
                try await engine.clock.sleep(for: interval)
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
            if silent >= engine.configuration.keepAlive.timeout {
                await unresponsive(silentFor: silent, engine)
                return
            }
        }
    }

    private func unresponsive(silentFor: Duration, _ engine: isolated PairEngine) async {
        engine.emit(.peerUnresponsive, "peer sent nothing for \(silentFor); closing \(link)", duration: silentFor)
        await link.close(.unresponsive)
    }
}
