import Foundation

extension WCSession {
    /// Queues the file at `file` for delivery to the counterpart, with optional `metadata` (docs/Design.md,
    /// "File transfers"); returns once the session holds its own durable copy, so the app may delete or change
    /// its file at once.
    ///
    /// The counterpart receives every file exactly once, in order among files, whenever it can — resumed,
    /// not restarted, across link drops and crashes of either side, and verified end to end (CRC-32C).
    /// `progress` follows the bytes the counterpart acknowledged; `session(_:didFinish:error:)` reports
    /// the end (on the next launch if the app was not running). A transfer that cannot be accepted is
    /// returned with `isTransferring == false`, nothing is queued, and `session(_:didFinish:error:)` is
    /// called with the error: session not ready (7003/7004/7016); a missing or unreadable file, or a URL
    /// that is not a file URL (7008, naming the path); metadata that is not a property list (7010) or over
    /// 64 KiB encoded (7009); the file queue or the disk full (7015).
    @discardableResult
    public func transferFile(_ file: URL, metadata: [String: Any]?) -> WCSessionFileTransfer {
        TransferCalls(session: self).transferFile(file, metadata: metadata)
    }

    /// File transfers accepted and not yet ended by the counterpart, oldest first, each with its current
    /// `progress`. Blocks until the engine has read them from its store. Empty before activation.
    public var outstandingFileTransfers: [WCSessionFileTransfer] {
        TransferCalls(session: self).outstandingFileTransfers
    }
}
