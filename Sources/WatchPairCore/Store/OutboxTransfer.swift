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

    /// The user info dictionary. Free for transfers from `enqueue`, `outstanding` and `unreportedFinished`
    /// (decoded when read); decoded on first use for those from `acknowledge`, which the engine never reads.
    public var payload: PlistDictionary { encodedPayload.dictionary }

    /// Creates a value; the store creates the ones it returns.
    public init(seq: UInt64, transferId: UUID, payload: EncodedDictionary, createdAt: Date) {
        self.seq = seq
        self.transferId = transferId
        self.encodedPayload = payload
        self.createdAt = createdAt
    }
}
