import Foundation
import WatchPairWire

extension PairEngine {
    /// Accepts a userInfo transfer (`transferUserInfo`): returns once it is durable in the store.
    ///
    /// Checks size (7009) before anything is stored; a full outbox gives 7015 and stores nothing.
    /// The transfer is delivered to the peer app exactly once, in order, whenever a link can be made.
    public func transferUserInfo(_ payload: PlistDictionary) async throws(WCFailure) -> OutboxTransfer {
        do {
            try configuration.limits.checkUserInfo(payload)
        } catch {
            emit(.payloadRejected, "userInfo refused: \(error.message)", channel: .userInfo, errorCode: error.code)
            throw error
        }
        let transfer: OutboxTransfer
        do {
            transfer = try await store.enqueue(transferId: UUID(), payload: payload)
        } catch {
            emit(.queueFull, "userInfo refused: \(error.message)", channel: .userInfo, errorCode: error.wcCode)
            throw error.failure
        }
        emit(.userInfoQueued, "userInfo \(transfer.seq) queued", channel: .userInfo, transferId: transfer.transferId, seq: transfer.seq)
        contentArrived()
        return transfer
    }

    /// Transfers accepted and not yet acknowledged by the peer, oldest first (`outstandingUserInfoTransfers`).
    public func outstandingUserInfoTransfers(after seq: UInt64 = 0, limit: Int = 10_000) async throws(WCFailure) -> [OutboxTransfer] {
        do {
            return try await store.outstanding(after: seq, limit: limit)
        } catch {
            throw error.failure
        }
    }

    /// Cancels an outstanding transfer; returns false when it is no longer outstanding.
    ///
    /// A transfer already written to the link may still arrive (as on Apple's devices); it is then
    /// acknowledged but its didFinish is not reported.
    public func cancelUserInfo(_ transferId: UUID) async throws(WCFailure) -> Bool {
        let cancelled: Bool
        do {
            cancelled = try await store.cancel(transferId: transferId)
        } catch {
            throw error.failure
        }
        if cancelled {
            emit(.userInfoCancelled, "userInfo \(transferId) cancelled", channel: .userInfo, transferId: transferId)
            contentSignal.fire()
        }
        return cancelled
    }

    /// Sends outstanding transfers on the current link in sequence order, at most `sendWindow` ahead of
    /// the peer's acknowledgement, reading them from the store page by page (memory does not grow with the
    /// queue). One pump serves the engine; when the current link changes it starts again from what the peer
    /// acknowledged, and the receiver skips what it already holds.
    func pumpOutbox() async {
        var link: Link?
        var cursor: UInt64 = 0
        // `after` chains the transfers on a link so the receiver can see a gap.
        var previous: UInt64 = 0
        let window = UInt64(max(1, configuration.sendWindow))
        while !Task.isCancelled {
            let seen = contentSignal.generation
            guard let target = current, target.isOpen else {
                await contentSignal.wait(after: seen)
                continue
            }
            let peerAckedUpTo = userInfoSender.ackedUpTo
            if target !== link || cursor < peerAckedUpTo {
                // A new current link, or a peer that holds more than was sent (it said so in a hello):
                // continue from what it acknowledged.
                link = target
                cursor = peerAckedUpTo
                previous = cursor
            }
            let inFlight = cursor > peerAckedUpTo ? cursor - peerAckedUpTo : 0
            guard inFlight < window else {
                await contentSignal.wait(after: seen)
                continue
            }
            let batch: [OutboxTransfer]
            do {
                batch = try await store.outstanding(after: cursor, limit: Int(min(256, window - inFlight)))
            } catch {
                logger.error("reading the outbox failed", metadata: ["error": "\(error)"])
                await contentSignal.wait(after: seen)
                continue
            }
            guard !batch.isEmpty else {
                await contentSignal.wait(after: seen)
                continue
            }
            // Written in chunks of frames, each one write call; the cursor moves only past what was written.
            var chunk = EncodedFrames()
            var chunkLast = previous
            for (index, transfer) in batch.enumerated() {
                chunk.append(
                    .userInfo(seq: transfer.seq, after: chunkLast, transferId: transfer.transferId, payload: transfer.payload))
                chunkLast = transfer.seq
                guard chunk.isFull || index == batch.count - 1 else { continue }
                guard current === target, (try? await target.send(chunk)) != nil else { break }
                previous = chunkLast
                cursor = chunkLast
                chunk = EncodedFrames()
            }
        }
    }

    /// The peer acknowledged everything up to `upTo` (``UserInfoSender`` rejects an acknowledgement of
    /// a seq never sent: the link is closed and nothing is marked finished).
    func acknowledged(upTo: UInt64, on link: Link) async -> Bool {
        switch userInfoSender.event(.ack(upTo: upTo, highestAssigned: store.highestAssignedSeq)) {
        case .reject(let reason):
            await reject(reason, code: .invalidParameter, on: link)
            return false
        case .none:
            return true
        case .finish(let seq):
            do {
                try await finish(upTo: seq)
            } catch {
                logger.error("recording an acknowledgement failed", metadata: ["error": "\(error)"])
                await link.close(.endOfStream)
                return false
            }
            contentSignal.fire()
            return true
        }
    }

    /// Marks transfers finished durably and tells the app (didFinish).
    func finish(upTo seq: UInt64) async throws {
        let finished = try await store.acknowledge(upTo: seq)
        guard !finished.isEmpty else { return }
        madeProgress()
        for transfer in finished {
            emit(.userInfoFinished, "userInfo \(transfer.seq) finished", channel: .userInfo, transferId: transfer.transferId, seq: transfer.seq)
        }
        appSignal.fire()
    }

    /// Stores received transfers (deduplicated, one transaction), acknowledges them, and tells the app.
    /// ``UserInfoReceiver`` decides what is stored: the chain up to a gap, if any.
    func receiveUserInfo(_ batch: [ReceivedUserInfo], on link: Link) async -> Bool {
        guard let peer = link.peerHello?.storeId else { return false }
        guard case .store(let chain, let gap) = userInfoReceiver.event(.frames(batch)) else { return true }
        let receipt: InboxReceipt
        do {
            receipt = try await store.receive(from: peer, chain.map { (seq: $0.seq, transferId: $0.transferId, payload: $0.payload) })
        } catch {
            // Nothing was acknowledged, so the sender keeps everything and resends after backing off.
            emit(.queueFull, "could not store received userInfo: \(error.message)", channel: .userInfo, errorCode: error.wcCode)
            let reason: CloseReason = error.wcCode == .insufficientSpace ? .refusedForSpace : .peerError(error.wcCode)
            await close(link, telling: .error(relatesTo: 0, code: error.wcCode, reason: error.message), as: reason)
            return false
        }
        _ = userInfoReceiver.event(.stored(lastSeq: receipt.lastSeq))
        for transfer in receipt.accepted {
            emit(.userInfoDelivered, "userInfo \(transfer.seq) received", channel: .userInfo, transferId: transfer.transferId, seq: transfer.seq)
        }
        if !receipt.accepted.isEmpty { appSignal.fire() }
        link.post(.ack(upTo: receipt.lastSeq))
        if let gap {
            await reject(
                "userInfo \(gap.seq) follows \(gap.after) but \(receipt.lastSeq) is the last held: a transfer is missing",
                code: .deliveryFailed, on: link
            )
            return false
        }
        if receipt.rejectedForSpace > 0 {
            let reason = "inbox full: \(receipt.rejectedForSpace) transfers not accepted until the app takes what it has"
            emit(.queueFull, reason, channel: .userInfo, errorCode: .insufficientSpace)
            // Back pressure: the sender waits; this side links back once the app has made room.
            owesRoom = true
            await close(link, telling: .error(relatesTo: 0, code: .insufficientSpace, reason: reason), as: .refusedForSpace)
            return false
        }
        return true
    }
}
