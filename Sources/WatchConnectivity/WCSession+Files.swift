import Foundation
import WatchPairCore
import WatchPairHost
import WatchPairWire

extension WCSession {
    /// Queues the file at `file` for delivery to the counterpart, with optional `metadata` (DESIGN.md §11);
    /// returns once the session holds its own durable copy, so the app may delete or change its file at once.
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
        let runtime: SessionRuntime
        let encoded: PlistDictionary?
        do throws(WCError) {
            runtime = try runtimeForSending()
            guard file.isFileURL else {
                throw WCError(.invalidParameter, message: "\(file.absoluteString) is not a file URL.")
            }
            encoded = try metadata.map { dictionary throws(WCError) in try PropertyListBridge.plist(from: dictionary) }
        } catch {
            return refusedFileTransfer(file, metadata: nil, error)
        }
        let engine = runtime.engine
        let path = file.path
        // Registered before the engine can finish it, so didFinish gets the object returned here.
        let result = transfers.registering {
            EngineExecutor.shared.blockingCall { () -> Result<WCSessionFileTransfer, WCFailure> in
                do throws(WCFailure) {
                    let stored = try await engine.transferFile(at: path, metadata: encoded)
                    return .success(self.transfers.object(for: stored, url: file, engine: engine, isTransferring: true))
                } catch {
                    return .failure(error)
                }
            }
        }
        switch result {
        case .success(let transfer):
            return transfer
        case .failure(let failure):
            return refusedFileTransfer(file, metadata: encoded, WCError(failure))
        }
    }

    /// File transfers accepted and not yet ended by the counterpart, oldest first, each with its current
    /// `progress`. Blocks until the engine has read them from its store. Empty before activation.
    public var outstandingFileTransfers: [WCSessionFileTransfer] {
        guard let runtime = activeRuntime else { return [] }
        let engine = runtime.engine
        let (outstanding, progress) = EngineExecutor.shared.blockingCall { () -> ([OutgoingFile], FileTransferProgress?) in
            ((try? await engine.outstandingFileTransfers()) ?? [], await engine.outgoingFileProgress())
        }
        return outstanding.map { stored in
            let transfer = transfers.object(for: stored, engine: engine, isTransferring: true)
            if let progress, progress.transferId == stored.transferId { transfer.acknowledged(progress.acknowledged) }
            return transfer
        }
    }

    /// A file transfer that was not accepted: returned not transferring, and reported to `didFinish` with `error`.
    private func refusedFileTransfer(_ url: URL, metadata: PlistDictionary?, _ error: WCError) -> WCSessionFileTransfer {
        let transfer = WCSessionFileTransfer(
            transferId: nil, file: WCSessionFile(fileURL: url, metadata: metadata), size: 0, isTransferring: false, canceller: nil)
        logger.debug("file transfer refused", metadata: ["error": "\(error)"])
        notifyDelegate { session, delegate in
            delegate.session(session, didFinish: transfer, error: error)
        }
        return transfer
    }
}
