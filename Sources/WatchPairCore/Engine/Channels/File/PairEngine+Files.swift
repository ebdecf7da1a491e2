import Foundation
import WatchPairWire

extension PairEngine {
    /// Accepts a file transfer (`transferFile(_:metadata:)`): returns once the store holds its own durable
    /// copy, so the app may delete its file at once.
    ///
    /// Metadata is checked like a userInfo payload (7010 unsupported types, 7009 too large). A missing or
    /// unreadable file is 7008 naming the path; a full file queue or disk is 7015 and stores nothing. The file
    /// reaches the peer app exactly once, in order among files, resumed after any link drop or crash.
    public func transferFile(at path: String, metadata: PlistDictionary?) async throws(WCFailure) -> OutgoingFile {
        var encoded: EncodedDictionary?
        if let metadata {
            do {
                encoded = try configuration.limits.encodeUserInfo(metadata)
            } catch {
                emit(.payloadRejected, "file metadata refused: \(error.message)", errorCode: error.code)
                throw error
            }
        }
        try refuseIfPeerNotInstalled("file", channel: .file)
        let file: OutgoingFile
        do {
            file = try await store.files.enqueueFile(source: path, metadata: encoded)
        } catch {
            // A bad file is the caller's mistake (7008); a full queue or disk is this side's bound (7015).
            let kind: DiagnosticEvent.Kind = error.kind == .unreadableFile ? .fileFailed : .queueFull
            emit(kind, "file refused: \(error.message)", channel: .file, errorCode: error.wcCode)
            throw error.failure
        }
        emitFile(.fileQueued, "file \(file.fileName) queued (\(file.size) bytes)", file.described)
        contentArrived()
        return file
    }

    /// Files accepted and not yet ended by the receiver, oldest first (`outstandingFileTransfers`).
    public func outstandingFileTransfers(after seq: UInt64 = 0, limit: Int = 1000) async throws(WCFailure) -> [OutgoingFile] {
        do {
            return try await store.files.outstandingFiles(after: seq, limit: limit)
        } catch {
            throw error.failure
        }
    }

    /// The outgoing file in flight and the bytes the receiver has durably acknowledged; nil when no file is
    /// in flight or the receiver has not answered its offer yet. `contentSignal` fires on every change.
    public func outgoingFileProgress() -> FileTransferProgress? {
        files.progress
    }

    /// Cancels an outstanding file; false when it is no longer outstanding. A file in flight is dropped at
    /// the receiver too (`fileEnd(cancelled)`), leaving no partial file there.
    public func cancelFileTransfer(_ transferId: UUID) async throws(WCFailure) -> Bool {
        let cancelled: OutgoingFile?
        do {
            cancelled = try await store.files.cancelFile(transferId: transferId)
        } catch {
            throw error.failure
        }
        guard let cancelled else { return false }
        emitFile(.fileCancelled, "file \(cancelled.fileName) cancelled by the app", cancelled.described)
        files.cancelled(cancelled, self)
        return true
    }

    /// Files the receiver ended whose didFinish the app has not been told about (`outcome` says how), in
    /// seq order after `seq`.
    public func pendingFinishedFiles(after seq: UInt64 = 0, limit: Int = 256) async throws(WCFailure) -> [OutgoingFile] {
        do {
            return try await store.files.unreportedFinishedFiles(after: seq, limit: limit)
        } catch {
            throw error.failure
        }
    }

    /// The app has been told these files finished.
    public func acknowledgeFinishedFiles(_ transferIds: [UUID]) async throws(WCFailure) {
        do {
            try await store.files.markFilesFinishedReported(transferIds)
        } catch {
            throw error.failure
        }
    }

    /// Received files the app has not taken, oldest first; each is whole and verified at `spoolPath`.
    public func pendingFiles(limit: Int = 64) async throws(WCFailure) -> [IncomingFile] {
        do {
            return try await store.files.receivedFiles(limit: limit)
        } catch {
            throw error.failure
        }
    }

    /// The app is done with a received file: it is deleted (as Apple removes it when `didReceive file`
    /// returns).
    public func acknowledgeFile(_ transferId: UUID) async throws(WCFailure) {
        do {
            try await store.files.consumeReceivedFile(transferId: transferId)
        } catch {
            throw error.failure
        }
    }
}
