import Foundation
import WatchPairCore
import WatchPairWire

// Outgoing files (`transferFile`) and the progress of the one in flight.
extension AppChannels {
    /// Accepts a file transfer (`transferFile(_:metadata:)`); returns once the store holds its own copy.
    public func transferFile(at path: String, metadata: PlistDictionary?) async throws(WCFailure) -> OutgoingFile {
        try await engine.transferFile(at: path, metadata: metadata)
    }

    /// Files accepted and not yet ended by the receiver, oldest first (`outstandingFileTransfers`).
    public func outstandingFileTransfers() async throws(WCFailure) -> [OutgoingFile] {
        try await engine.outstandingFileTransfers()
    }

    /// The file in flight and the bytes the receiver acknowledged; nil when none (``contentSignal``
    /// fires on every change).
    public func outgoingFileProgress() async -> FileTransferProgress? {
        await engine.outgoingFileProgress()
    }

    /// Cancels an outstanding file; false when it is no longer outstanding.
    public func cancelFileTransfer(_ transferId: UUID) async throws(WCFailure) -> Bool {
        try await engine.cancelFileTransfer(transferId)
    }
}
