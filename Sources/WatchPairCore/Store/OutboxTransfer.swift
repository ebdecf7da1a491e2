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
    /// The user info dictionary.
    public var payload: PlistDictionary
    /// When the app handed it over.
    public var createdAt: Date

    /// Creates a value; the store creates the ones it returns.
    public init(seq: UInt64, transferId: UUID, payload: PlistDictionary, createdAt: Date) {
        self.seq = seq
        self.transferId = transferId
        self.payload = payload
        self.createdAt = createdAt
    }
}
