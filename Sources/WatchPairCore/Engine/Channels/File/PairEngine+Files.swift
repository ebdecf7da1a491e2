import Foundation
import WatchPairWire

extension PairEngine {
    /// The file channel's two loops (``FileChannel/pump(_:)``), each a child task on the actor.
    func sendFiles() async { await files.send(self) }
    func syncReceivedFiles() async { await files.syncReceived(self) }

    /// Accepts a file transfer (`transferFile(_:metadata:)`): returns once the store holds its own durable
    /// copy, so the app may delete its file at once.
    ///
    /// Metadata is checked like a userInfo payload (7010 unsupported types, 7009 too large). A missing or
    /// unreadable file is 7008 naming the path; a full file queue or disk is 7015 and stores nothing. The file
    /// reaches the peer app exactly once, in order among files, resumed after any link drop or crash.
    public func transferFile(at path: String, metadata: PlistDictionary?) async throws(WCFailure) -> OutgoingFile {
        try await files.accept(at: path, metadata: metadata, self)
    }

    /// Files accepted and not yet ended by the receiver, oldest first (`outstandingFileTransfers`).
    public func outstandingFileTransfers(after seq: UInt64 = 0, limit: Int = 1000) async throws(WCFailure) -> [OutgoingFile] {
        try await StoreError.reported { () async throws(StoreError) in try await store.files.outstandingFiles(after: seq, limit: limit) }
    }

    /// The outgoing file in flight and the bytes the receiver has durably acknowledged; nil when no file is
    /// in flight or the receiver has not answered its offer yet. `contentSignal` fires on every change.
    public func outgoingFileProgress() -> FileTransferProgress? {
        files.progress
    }

    /// Cancels an outstanding file; false when it is no longer outstanding. A file in flight is dropped at
    /// the receiver too (`fileEnd(cancelled)`), leaving no partial file there.
    public func cancelFileTransfer(_ transferId: UUID) async throws(WCFailure) -> Bool {
        try await files.cancel(transferId, self)
    }

    /// Files the receiver ended whose didFinish the app has not been told about (`outcome` says how), in
    /// seq order after `seq`.
    public func pendingFinishedFiles(after seq: UInt64 = 0, limit: Int = 256) async throws(WCFailure) -> [OutgoingFile] {
        try await StoreError.reported { () async throws(StoreError) in try await store.files.unreportedFinishedFiles(after: seq, limit: limit) }
    }

    /// The app has been told these files finished.
    public func acknowledgeFinishedFiles(_ transferIds: [UUID]) async throws(WCFailure) {
        try await StoreError.reported { () async throws(StoreError) in try await store.files.markFilesFinishedReported(transferIds) }
    }

    /// Received files the app has not taken, oldest first; each is whole and verified at `spoolPath`.
    public func pendingFiles(limit: Int = 64) async throws(WCFailure) -> [IncomingFile] {
        let files = try await StoreError.reported { () async throws(StoreError) in try await store.files.receivedFiles(limit: limit) }
        return quirks.isEmpty || quirks.heldFiles.isEmpty ? files : files.filter { !quirks.heldFiles.contains($0.offer.transferId) }
    }

    /// The app is done with a received file: it is deleted (as Apple removes it when `didReceive file`
    /// returns).
    public func acknowledgeFile(_ transferId: UUID) async throws(WCFailure) {
        try await StoreError.reported { () async throws(StoreError) in try await store.files.consumeReceivedFile(transferId: transferId) }
    }
}
