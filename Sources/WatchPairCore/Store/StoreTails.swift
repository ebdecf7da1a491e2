/// The userInfo tables' ``StoreTail``s, kept by ``PairStore`` under one lock.
struct StoreTails: Sendable {
    /// Rows per tail; the pump reads 256 at a time and the app's readers page by 256 too.
    static let maxRows = 512
    /// Payload bytes per tail: at most this much memory for rows nobody has taken yet.
    static let maxBytes = 1 << 20

    /// Received transfers the app has not taken.
    var inbox = StoreTail<InboxTransfer>(maxRows: maxRows, maxBytes: maxBytes)
    /// Outstanding transfers and finished ones not yet reported.
    var outbox = StoreTail<OutboxTailRow>(maxRows: maxRows, maxBytes: maxBytes)
}

/// An outbox row in its tail: the transfer, and whether the peer has acknowledged it (`finished`).
struct OutboxTailRow: StoreTailRow {
    var transfer: OutboxTransfer
    var finished = false
    var position: UInt64 { transfer.seq }
    var byteCount: Int { transfer.encodedPayload.byteCount + StoreTails.rowOverhead }
}

extension InboxTransfer: StoreTailRow {
    var position: UInt64 { deliveryId }
    var byteCount: Int { encodedPayload.byteCount + StoreTails.rowOverhead }
}

extension StoreTails {
    /// What a row costs besides its payload (ids, dates, the array slot), roughly.
    static let rowOverhead = 96
}
