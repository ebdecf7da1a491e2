import Foundation

/// How far the outgoing file in flight has got: the bytes the receiver holds durably, as its last
/// `fileAck` said (`PairEngine.outgoingFileProgress()`).
///
/// Counts only what the receiver acknowledged, never what was merely written to the link, so it never
/// goes back: after a link drop or a restart the receiver's answer to the new offer is at least the last
/// acknowledged offset.
public struct FileTransferProgress: Sendable, Hashable {
    /// The transfer's identity (`WCSessionFileTransfer`).
    public var transferId: UUID
    /// The sender's file seq.
    public var seq: UInt64
    /// Bytes the receiver holds durably.
    public var acknowledged: UInt64
    /// The file's size in bytes.
    public var size: UInt64

    /// A progress value.
    public init(transferId: UUID, seq: UInt64, acknowledged: UInt64, size: UInt64) {
        self.transferId = transferId
        self.seq = seq
        self.acknowledged = acknowledged
        self.size = size
    }

    /// `acknowledged / size`, 1 for an empty file.
    public var fraction: Double {
        size == 0 ? 1 : Double(acknowledged) / Double(size)
    }
}
