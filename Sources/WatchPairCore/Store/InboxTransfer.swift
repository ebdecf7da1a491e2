import Foundation
import WatchPairWire

/// One userInfo transfer received from the peer and durably held until the app takes it.
public struct InboxTransfer: Sendable, Hashable {
    /// Local, strictly increasing in arrival order and never reused; the app acknowledges by it
    /// (`PairStore.consumeInbox(upTo:)`).
    public var deliveryId: UInt64
    /// The sender's sequence number.
    public var seq: UInt64
    /// The sender's transfer id.
    public var transferId: UUID
    /// The user info as the frame carried it and the store keeps it.
    public var encodedPayload: EncodedDictionary
    /// When this side stored it.
    public var receivedAt: Date
    /// It came as the current complication info (`transferCurrentComplicationUserInfo` on the phone).
    public var isCurrentComplicationInfo: Bool
    /// The queue it was routed to on arrival (``InboxQueue``): only that queue's reader is given it.
    public var queue: InboxQueue

    /// The user info dictionary (decoded once, when the frame arrived or when the inbox was read).
    public var payload: PlistDictionary { encodedPayload.dictionary }

    /// Creates a value; the store creates the ones it returns.
    public init(
        deliveryId: UInt64, seq: UInt64, transferId: UUID, payload: EncodedDictionary, receivedAt: Date,
        isCurrentComplicationInfo: Bool = false, queue: InboxQueue = .app
    ) {
        self.deliveryId = deliveryId
        self.seq = seq
        self.transferId = transferId
        self.encodedPayload = payload
        self.receivedAt = receivedAt
        self.isCurrentComplicationInfo = isCurrentComplicationInfo
        self.queue = queue
    }
}

/// What `PairStore.receive(from:_:)` did with a batch of received transfers.
public struct InboxReceipt: Sendable, Hashable {
    /// Newly stored transfers, in order (duplicates excluded).
    public var accepted: [InboxTransfer]
    /// The highest seq now durably held from that peer store: acknowledge this to the sender.
    public var lastSeq: UInt64
    /// How many new transfers did not fit under `inboxLimit`: not stored, not covered by `lastSeq`, so the
    /// sender keeps and resends them.
    public var rejectedForSpace: Int

    /// Creates a value; the store creates the ones it returns.
    public init(accepted: [InboxTransfer], lastSeq: UInt64, rejectedForSpace: Int) {
        self.accepted = accepted
        self.lastSeq = lastSeq
        self.rejectedForSpace = rejectedForSpace
    }
}
