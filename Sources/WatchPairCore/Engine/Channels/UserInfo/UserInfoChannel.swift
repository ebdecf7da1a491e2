import Foundation
import WatchPairWire

/// The userInfo channel's executor: it owns the channel's machines (``UserInfoSender``,
/// ``UserInfoReceiver``), pumps the outbox onto the current link and applies what arrives.
///
/// Owned by one ``PairEngine`` and touched only on its actor: every method takes the engine as its
/// `isolated` parameter, so the channel's state and the links stay in one isolation domain.
final class UserInfoChannel {
    /// What the peer store acknowledged.
    var sender = UserInfoSender()
    /// The chain this side holds of the peer's transfers.
    var receiver = UserInfoReceiver()

    /// Sends outstanding transfers on the current link in sequence order, at most `sendWindow` ahead of
    /// the peer's acknowledgement, reading them from the store page by page (memory does not grow with the
    /// queue). One pump serves the engine; when the current link changes it starts again from what the peer
    /// acknowledged, and the receiver skips what it already holds.
    func pump(_ engine: isolated PairEngine) async {
        var link: Link?
        // The last seq written on `link`: the next frame's `after`, so the receiver can see a gap.
        var cursor: UInt64 = 0
        let window = UInt64(max(1, engine.configuration.sendWindow))
        while !Task.isCancelled {
            let seen = engine.contentSignal.generation
            guard let target = engine.current, target.isOpen else {
                await engine.contentSignal.wait(after: seen)
                continue
            }
            cursor = sender.resumePoint(cursor: cursor, newLink: target !== link)
            link = target
            let room = sender.room(after: cursor, window: window, highestAssigned: engine.store.highestAssignedSeq)
            guard room > 0 else {
                await engine.contentSignal.wait(after: seen)
                continue
            }
            var batch: [OutboxTransfer]
            do {
                batch = try await engine.store.outstandingToSend(after: cursor, limit: Int(min(256, room)))
                // `stuckUserInfo`: what is stuck waits for the next transfer.
                if !engine.quirks.isEmpty, let stuck = engine.quirks.stuckFrom { batch.removeAll { $0.seq >= stuck } }
            } catch {
                engine.logger.error("reading the outbox failed", metadata: ["error": "\(error)"])
                await engine.contentSignal.wait(after: seen)
                continue
            }
            guard !batch.isEmpty else {
                await engine.contentSignal.wait(after: seen)
                continue
            }
            // Written in chunks of frames, each one write call; the cursor moves only past what was written.
            var chunk = EncodedFrames()
            var chunkLast = cursor
            for (index, transfer) in batch.enumerated() {
                chunk.append(
                    transfer.isCurrentComplicationInfo
                        ? .complicationUserInfo(seq: transfer.seq, after: chunkLast, transferId: transfer.transferId, payload: transfer.encodedPayload)
                        : .userInfo(seq: transfer.seq, after: chunkLast, transferId: transfer.transferId, payload: transfer.encodedPayload))
                chunkLast = transfer.seq
                guard chunk.isFull || index == batch.count - 1 else { continue }
                guard engine.current === target, (try? await target.send(chunk)) != nil else {
                    // The link is going: wait for the engine to notice (it fires the signal). Pages often
                    // come from memory now (``StoreTail``), so retrying at once could hold the actor and
                    // never let it run the close.
                    await engine.contentSignal.wait(after: seen)
                    break
                }
                cursor = chunkLast
                chunk = EncodedFrames()
            }
        }
    }

    /// The peer acknowledged everything up to `upTo` (``UserInfoSender`` rejects an acknowledgement of
    /// a seq never sent: the link is closed and nothing is marked finished).
    func acknowledged(upTo: UInt64, on link: Link, _ engine: isolated PairEngine) async -> Bool {
        switch sender.event(.ack(upTo: upTo, highestAssigned: engine.store.highestAssignedSeq)) {
        case .reject(let reason):
            await LinkSession(link).reject(reason, code: .invalidParameter, engine)
            return false
        case .none:
            return true
        case .finish(let seq):
            do {
                try await finish(upTo: seq, engine)
            } catch {
                engine.logger.error("recording an acknowledgement failed", metadata: ["error": "\(error)"])
                await link.close(.endOfStream)
                return false
            }
            engine.contentSignal.fire()
            return true
        }
    }

    /// Checks a hello's claim about this side's outbox without applying it: the refusal, if any.
    func violation(in hello: Hello, _ engine: isolated PairEngine) -> String? {
        var probe = sender
        if case .reject(let reason) = probe.event(helloEvent(hello, engine)) { return reason }
        return nil
    }

    /// On an established link: the chain restarts from what the store holds, and what the hello
    /// acknowledges (checked by ``violation(in:_:)``) is marked finished.
    func linked(_ hello: Hello, heldUpTo held: UInt64, _ engine: isolated PairEngine) async throws {
        _ = receiver.event(.linked(heldUpTo: held))
        // Checked before; the store's bound only grows, so this cannot reject now.
        if case .finish(let upTo) = sender.event(helloEvent(hello, engine)) {
            try await finish(upTo: upTo, engine)
        }
    }

    /// The userInfo sender's view of a hello.
    private func helloEvent(_ hello: Hello, _ engine: isolated PairEngine) -> UserInfoSender.Event {
        .hello(
            peerStoreId: hello.storeId, resume: hello.resume, ownStoreId: engine.store.storeId,
            highestAssigned: engine.store.highestAssignedSeq)
    }

    /// Marks transfers finished durably and tells the app (didFinish).
    private func finish(upTo seq: UInt64, _ engine: isolated PairEngine) async throws {
        let finished = try await engine.store.acknowledge(upTo: seq)
        guard !finished.isEmpty else { return }
        engine.driver.madeProgress()
        engine.contentPendingMayHaveChanged()
        for transfer in finished {
            engine.emit(.userInfoFinished, "userInfo \(transfer.seq) finished", channel: .userInfo, transferId: transfer.transferId, seq: transfer.seq)
        }
        engine.appChanges.fire(.finished)
    }

    /// Stores received transfers (deduplicated, one transaction), acknowledges them, and tells the app.
    /// ``UserInfoReceiver`` decides what is stored: the chain up to a gap, if any.
    func receive(_ batch: [ReceivedUserInfo], on link: Link, _ engine: isolated PairEngine) async -> Bool {
        guard let peer = link.peerHello?.storeId else { return false }
        guard case .store(let chain, let gap) = receiver.event(.frames(batch)) else { return true }
        let receipt: InboxReceipt
        do {
            receipt = try await engine.store.receive(
                from: peer, encoded: chain.map { (seq: $0.seq, transferId: $0.transferId, payload: $0.payload) },
                complication: Set(chain.lazy.filter(\.isCurrentComplicationInfo).map(\.seq)),
                queues: engine.inboxQueues(of: chain))
        } catch {
            // Nothing was acknowledged, so the sender keeps everything and resends after backing off.
            engine.emit(.queueFull, "could not store received userInfo: \(error.message)", channel: .userInfo, errorCode: error.wcCode)
            let reason: CloseReason = error.wcCode == .insufficientSpace ? .refusedForSpace : .peerError(error.wcCode)
            await LinkSession(link).close(telling: .error(relatesTo: 0, code: error.wcCode, reason: error.message), as: reason, engine)
            return false
        }
        _ = receiver.event(.stored(lastSeq: receipt.lastSeq))
        for transfer in receipt.accepted {
            engine.emit(.userInfoDelivered, "userInfo \(transfer.seq) received", channel: .userInfo, transferId: transfer.transferId, seq: transfer.seq)
        }
        if !engine.quirks.isEmpty { engine.quirkOnReceived(receipt.accepted) }
        if !receipt.accepted.isEmpty { engine.appChanges.fire(.userInfo) }
        link.post(.ack(upTo: receipt.lastSeq))
        if let gap {
            await LinkSession(link).reject(
                "userInfo \(gap.seq) follows \(gap.after) but \(receipt.lastSeq) is the last held: a transfer is missing",
                code: .deliveryFailed, engine
            )
            return false
        }
        if receipt.rejectedForSpace > 0 {
            let reason = "inbox full: \(receipt.rejectedForSpace) transfers not accepted until the app takes what it has"
            engine.emit(.queueFull, reason, channel: .userInfo, errorCode: .insufficientSpace)
            // Back pressure: the sender waits; this side links back once the app has made room.
            engine.owesRoom = true
            await LinkSession(link).close(telling: .error(relatesTo: 0, code: .insufficientSpace, reason: reason), as: .refusedForSpace, engine)
            return false
        }
        return true
    }
}
