import Foundation
import WatchPairWire

extension PairEngine {
    /// Accepts a userInfo transfer (`transferUserInfo`): returns once it is durable in the store.
    ///
    /// Checks size (7009) before anything is stored; a peer app that is not installed gives 7006/7018 and
    /// a full outbox 7015, both storing nothing. The payload
    /// is encoded here, once: the store keeps those bytes and the frames carry them.
    /// The transfer is delivered to the peer app exactly once, in order, whenever a link can be made.
    public func transferUserInfo(_ payload: PlistDictionary) async throws(WCFailure) -> OutboxTransfer {
        let encoded = try checkedUserInfo(payload, "userInfo")
        let transfer = try await enqueueUserInfo(encoded, complication: false)
        if !quirks.isEmpty { quirkOnTransfer(transfer) }
        userInfoQueued(transfer)
        return transfer
    }

    /// The local checks of a userInfo (7009 size, 7008 nesting), then the peer's installation (7006/7018):
    /// the payload encoded once, or the refusal with its event. `what` names the call in events.
    func checkedUserInfo(_ payload: PlistDictionary, _ what: String) throws(WCFailure) -> EncodedDictionary {
        let encoded: EncodedDictionary
        do {
            encoded = try configuration.limits.encodeUserInfo(payload)
        } catch {
            emit(.payloadRejected, "\(what) refused: \(error.message)", channel: .userInfo, errorCode: error.code)
            throw error
        }
        try installations.refuseIfPeerNotInstalled(what, channel: .userInfo, self)
        return encoded
    }

    /// Appends a checked payload to the outbox (durable when it returns); a full outbox is 7015 with a
    /// `queueFull` event and nothing stored.
    func enqueueUserInfo(_ encoded: EncodedDictionary, complication: Bool) async throws(WCFailure) -> OutboxTransfer {
        do {
            return try await store.enqueue(payload: encoded, complication: complication)
        } catch {
            emit(.queueFull, "userInfo refused: \(error.message)", channel: .userInfo, errorCode: error.wcCode)
            throw error.failure
        }
    }

    /// A transfer is durable: its event, and the pump and the peer are told.
    func userInfoQueued(_ transfer: OutboxTransfer) {
        emit(.userInfoQueued, "userInfo \(transfer.seq) queued", channel: .userInfo, transferId: transfer.transferId, seq: transfer.seq)
        contentArrived()
    }

    /// Transfers accepted and not yet acknowledged by the peer, oldest first (`outstandingUserInfoTransfers`).
    public func outstandingUserInfoTransfers(after seq: UInt64 = 0, limit: Int = 10_000) async throws(WCFailure) -> [OutboxTransfer] {
        try await StoreError.reported { () async throws(StoreError) in try await store.outstanding(after: seq, limit: limit) }
    }

    /// Cancels an outstanding transfer; returns false when it is no longer outstanding.
    ///
    /// A transfer already written to the link may still arrive (as on Apple's devices); it is then
    /// acknowledged but its didFinish is not reported.
    public func cancelUserInfo(_ transferId: UUID) async throws(WCFailure) -> Bool {
        let cancelled = try await StoreError.reported { () async throws(StoreError) in try await store.cancel(transferId: transferId) }
        if cancelled {
            emit(.userInfoCancelled, "userInfo \(transferId) cancelled", channel: .userInfo, transferId: transferId)
            contentSignal.fire()
        }
        return cancelled
    }
}
