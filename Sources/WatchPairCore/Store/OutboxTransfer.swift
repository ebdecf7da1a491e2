import Foundation
import WatchPairWire

/// One userInfo transfer in the sender's outbox.
///
/// Created by `PairStore.enqueue`; outstanding until acknowledged by the peer or cancelled; then finished
/// until the app has been told (`PairStore.markFinishedReported`).
public struct OutboxTransfer: Sendable, Hashable {
    /// The sender store's sequence number: strictly increasing, never reused (also after cancel or delete).
    public var seq: UInt64
    /// The transfer's identity, as the app sees it (`WCSessionUserInfoTransfer`).
    public var transferId: UUID
    /// The user info as it was encoded when the app handed it over: the bytes the store keeps and the
    /// frame carries.
    public var encodedPayload: EncodedDictionary
    /// When the app handed it over.
    public var createdAt: Date
    /// Sent as the current complication info (`transferCurrentComplicationUserInfo` within the day's
    /// budget): `WCSessionUserInfoTransfer.isCurrentComplicationInfo`.
    public var isCurrentComplicationInfo: Bool

    /// The user info dictionary: at hand for transfers from `enqueue`, and validated when `outstanding` and
    /// `unreportedFinished` read them (a damaged row is reported there as `.corrupt`).
    public var payload: PlistDictionary { encodedPayload.dictionary }

    /// Creates a value; the store creates the ones it returns.
    public init(
        seq: UInt64, transferId: UUID, payload: EncodedDictionary, createdAt: Date, isCurrentComplicationInfo: Bool = false
    ) {
        self.seq = seq
        self.transferId = transferId
        self.encodedPayload = payload
        self.createdAt = createdAt
        self.isCurrentComplicationInfo = isCurrentComplicationInfo
    }
}

/// A transfer the peer has just acknowledged (`PairStore.acknowledge`): which one, without its payload.
public struct FinishedTransfer: Sendable, Hashable {
    /// The sender store's sequence number.
    public var seq: UInt64
    /// The transfer's identity.
    public var transferId: UUID

    public init(seq: UInt64, transferId: UUID) {
        self.seq = seq
        self.transferId = transferId
    }
}

extension OutboxTransfer {
    /// This transfer as an acknowledgement reports it.
    public var finished: FinishedTransfer { FinishedTransfer(seq: seq, transferId: transferId) }
}
