import Foundation
import WatchPairWire

/// What the app asks of the file channel: accept a file, cancel one.
extension FileChannel {
    /// See ``PairEngine/transferFile(at:metadata:)``.
    func accept(at path: String, metadata: PlistDictionary?, _ engine: isolated PairEngine) async throws(WCFailure) -> OutgoingFile {
        var encoded: EncodedDictionary?
        if let metadata {
            do {
                encoded = try engine.configuration.limits.encodeUserInfo(metadata)
            } catch {
                engine.emit(.payloadRejected, "file metadata refused: \(error.message)", errorCode: error.code)
                throw error
            }
        }
        try engine.installations.refuseIfPeerNotInstalled("file", channel: .file, engine)
        let file: OutgoingFile
        do {
            file = try await engine.store.files.enqueueFile(source: path, metadata: encoded)
        } catch {
            // A bad file is the caller's mistake (7008); a full queue or disk is this side's bound (7015).
            let kind: DiagnosticEvent.Kind = error.kind == .unreadableFile ? .fileFailed : .queueFull
            engine.emit(kind, "file refused: \(error.message)", channel: .file, errorCode: error.wcCode)
            throw error.failure
        }
        emit(.fileQueued, "file \(file.fileName) queued (\(file.size) bytes)", file.described, engine)
        engine.contentArrived()
        return file
    }

    /// See ``PairEngine/cancelFileTransfer(_:)``.
    func cancel(_ transferId: UUID, _ engine: isolated PairEngine) async throws(WCFailure) -> Bool {
        let cancelled: OutgoingFile?
        do {
            cancelled = try await engine.store.files.cancelFile(transferId: transferId)
        } catch {
            throw error.failure
        }
        guard let cancelled else { return false }
        emit(.fileCancelled, "file \(cancelled.fileName) cancelled by the app", cancelled.described, engine)
        self.cancelled(cancelled, engine)
        return true
    }
}
