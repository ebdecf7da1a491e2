import Foundation
import WatchPairWire

/// One file the receiver holds, partly or wholly (`PairStore.openIncomingFile`).
public struct IncomingFile: Sendable, Hashable {
    /// The sender store it came from.
    public var peerStoreId: UUID
    /// The offer it was opened from (seq, id, name, size, checksum, metadata); `after` is always 0, as it
    /// belongs to the link that made the offer, not to the file.
    public var offer: FileOffer
    /// How many bytes from the start are durably written (fsynced, and recorded in the same order).
    public var durableOffset: UInt64
    /// CRC-32C of those bytes, so verifying at the end needs no second read of the file.
    public var runningChecksum: UInt32
    /// Every byte is in and matched the checksum: the file waits for the app.
    public var isComplete: Bool
    /// The file in the store's spool.
    public var spoolPath: String
}

/// What the receiver's store says about an offered file (`PairStore.openIncomingFile`).
public enum IncomingFileState: Sendable, Hashable {
    /// The file's seq is already passed: answer `fileEnd` with this outcome again, deliver nothing.
    case passed(FileOutcome)
    /// Continue from `durableOffset` of this file (0 for a new one): resumed, not restarted.
    case open(IncomingFile)
}
