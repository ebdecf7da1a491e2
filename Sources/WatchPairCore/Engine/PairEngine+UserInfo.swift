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
        contentSignal.fire()
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

    /// What the peer already holds from this store, as its hello says: finished, and not sent again.
    func resumeOutbox(peerResume: ResumeState) async throws {
        guard peerResume.peerStoreId == store.storeId else { return }
        peerAckedUpTo = max(peerAckedUpTo, peerResume.lastUserInfoSeq)
        try await finish(upTo: peerResume.lastUserInfoSeq)
        contentSignal.fire()
    }

    /// The peer acknowledged everything up to `upTo`.
    func acknowledged(upTo: UInt64, on link: Link) async -> Bool {
        do {
            try await finish(upTo: upTo)
        } catch {
            logger.error("recording an acknowledgement failed", metadata: ["error": "\(error)"])
            await link.close(.endOfStream)
            return false
        }
        peerAckedUpTo = max(peerAckedUpTo, upTo)
        contentSignal.fire()
        return true
    }

    /// Marks transfers finished durably and tells the app (didFinish).
    func finish(upTo seq: UInt64) async throws {
        let finished = try await store.acknowledge(upTo: seq)
        guard !finished.isEmpty else { return }
        if backoffUntilProgress {
            backoffUntilProgress = false
            reconnect.reset()
        }
        for transfer in finished {
            emit(.userInfoFinished, "userInfo \(transfer.seq) finished", channel: .userInfo, transferId: transfer.transferId, seq: transfer.seq)
        }
        appSignal.fire()
    }

    /// Stores received transfers (deduplicated, one transaction), acknowledges them, and tells the app.
    ///
    /// Only a contiguous chain is accepted: each transfer must name the last one held in `after`, or be
    /// a duplicate. A gap means a frame was lost; what came before it is stored and acknowledged, then the
    /// link is closed so the sender resumes from what this side holds.
    func receiveUserInfo(_ batch: [ReceivedUserInfo], on link: Link) async -> Bool {
        guard let peer = link.peerHello?.storeId else { return false }
        var held = peerHeldUpTo
        var chain: [(seq: UInt64, transferId: UUID, payload: PlistDictionary)] = []
        var gap: ReceivedUserInfo?
        for transfer in batch {
            if transfer.seq > held {
                guard transfer.after == held else {
                    gap = transfer
                    break
                }
                held = transfer.seq
            }
            chain.append((transfer.seq, transfer.transferId, transfer.payload))
        }
        let receipt: InboxReceipt
        do {
            receipt = try await store.receive(from: peer, chain)
        } catch {
            // Nothing was acknowledged, so the sender keeps everything and resends after backing off.
            emit(.queueFull, "could not store received userInfo: \(error.message)", channel: .userInfo, errorCode: error.wcCode)
            await close(link, telling: .error(relatesTo: 0, code: error.wcCode, reason: error.message), as: .peerError(error.wcCode))
            return false
        }
        peerHeldUpTo = max(peerHeldUpTo, receipt.lastSeq)
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
            await close(link, telling: .error(relatesTo: 0, code: .insufficientSpace, reason: reason), as: .peerError(.insufficientSpace))
            return false
        }
        return true
    }
}

/// A userInfo frame as the receiver checks it.
struct ReceivedUserInfo: Sendable {
    let seq: UInt64
    let after: UInt64
    let transferId: UUID
    let payload: PlistDictionary
}
