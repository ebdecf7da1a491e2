import Foundation

/// The first frame of one file transfer (`transferFile`): what the receiver needs before any byte.
///
/// Sent on every (re)connect while the transfer is outstanding; the receiver answers with `fileAck`
/// giving the offset it durably holds, and the sender continues from there (resumed, not restarted).
public struct FileOffer: Sendable, Hashable {
    /// Per-sender-store sequence number shared by no other file, starting at 1 (its own numbering,
    /// apart from userInfo's). Cancelled numbers are skipped, never reused.
    public var seq: UInt64
    /// The `seq` of the file offered just before this one on this link, or the resume point for the
    /// first; as for userInfo, so the receiver can tell a gap from a contiguous stream.
    public var after: UInt64
    /// The transfer's identity shown to the apps.
    public var transferId: UUID
    /// The file's last path component as the app named it; a valid `FileName`.
    public var fileName: String
    /// The file's size in bytes.
    public var size: UInt64
    /// CRC-32C (`CRC32C`) of the whole file, checked by the receiver once every byte is in.
    public var checksum: UInt32
    /// The app's metadata (`transferFile(_:metadata:)`), nil when it gave none.
    public var metadata: EncodedDictionary?

    /// An offer from its fields.
    public init(
        seq: UInt64, after: UInt64, transferId: UUID, fileName: String, size: UInt64, checksum: UInt32,
        metadata: EncodedDictionary?
    ) {
        self.seq = seq
        self.after = after
        self.transferId = transferId
        self.fileName = fileName
        self.size = size
        self.checksum = checksum
        self.metadata = metadata
    }
}

/// How a file transfer ended, carried by `Frame.fileEnd`.
public enum FileEndStatus: UInt8, Sendable, Hashable, CaseIterable {
    /// Receiver to sender: every byte is durably held and matched the checksum; the file will reach the
    /// receiving app exactly once. The sender finishes the transfer (`didFinish` without error).
    case received = 1
    /// Sender to receiver: the app cancelled the transfer; the receiver deletes what it holds of it and
    /// counts `seq` as passed, so the next file follows without a gap.
    case cancelled = 2
    /// Receiver to sender: every byte arrived but the checksum differs; the receiver deleted the partial
    /// file and passed `seq`. The sender finishes the transfer with 7014 (deliveryFailed).
    case corrupt = 3
}

/// The rule for a file name on the wire and on disk: one path component the receiver can create in its
/// own directory and nothing else.
public enum FileName {
    /// The longest accepted name in UTF-8 bytes (Linux's `NAME_MAX`).
    public static let maxByteCount = 255

    /// Whether `name` is non-empty, at most `maxByteCount` UTF-8 bytes, not `.` or `..`, and holds no
    /// `/` and no NUL: so joining it to a directory never leaves that directory.
    public static func isValid(_ name: String) -> Bool {
        let utf8 = name.utf8
        return !utf8.isEmpty && utf8.count <= maxByteCount && name != "." && name != ".."
            && !utf8.contains(UInt8(ascii: "/")) && !utf8.contains(0)
    }
}
