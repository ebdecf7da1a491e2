import Foundation
import WatchPairWire

/// One file transfer in the sender's file queue (`PairStore.enqueueFile`).
///
/// Outstanding until the receiver ends it (`fileEnd` received or corrupt) or the app cancels it; then
/// finished until the app has been told (`PairStore.markFilesFinishedReported`). The bytes are the store's
/// own copy (`spoolPath`), made when the transfer was accepted, so the app may delete its file at once.
public struct OutgoingFile: Sendable, Hashable {
    /// The sender store's file sequence number: strictly increasing, never reused.
    public var seq: UInt64
    /// The transfer's identity, as the app sees it (`WCSessionFileTransfer`).
    public var transferId: UUID
    /// The last path component of the app's file: the name the receiver gets.
    public var fileName: String
    /// The size of the copy in bytes.
    public var size: UInt64
    /// CRC-32C of the copy.
    public var checksum: UInt32
    /// The app's metadata; nil when it gave none.
    public var metadata: EncodedDictionary?
    /// When the app handed the file over.
    public var createdAt: Date
    /// The store's copy of the file.
    public var spoolPath: String
    /// How it ended: nil while outstanding.
    public var outcome: FileOutcome?

    /// The offer frame for this file, `after` the given resume point.
    public func offer(after: UInt64) -> FileOffer {
        FileOffer(
            seq: seq, after: after, transferId: transferId, fileName: fileName, size: size, checksum: checksum,
            metadata: metadata)
    }
}

/// How a file transfer ended, as both stores record it.
public enum FileOutcome: Int64, Sendable, Hashable, CaseIterable {
    /// The receiver holds every byte and the checksum matched.
    case received = 1
    /// Every byte arrived but the checksum differed; the receiver dropped the file (7014 to the sender's app).
    case corrupt = 2
    /// The sending app cancelled it (receiver side only: a cancelled outgoing row is deleted).
    case cancelled = 3

    /// The `fileEnd` status that reports this outcome.
    public var status: FileEndStatus {
        switch self {
        case .received: .received
        case .corrupt: .corrupt
        case .cancelled: .cancelled
        }
    }
}
