import Foundation
import WatchPairCore
import WatchPairHost
import WatchPairWire

extension TransferCalls {
    /// `transferFile(_:metadata:)`: returns once the session holds its own durable copy of the file.
    func transferFile(_ file: URL, metadata: [String: Any]?) -> WCSessionFileTransfer {
        let runtime: SessionRuntime
        let encoded: PlistDictionary?
        do throws(WCError) {
            runtime = try session.runtimeForSending()
            guard file.isFileURL else {
                throw WCError(.invalidParameter, message: "\(file.absoluteString) is not a file URL.")
            }
            encoded = try metadata.map { dictionary throws(WCError) in try PropertyListBridge.plist(from: dictionary) }
        } catch {
            return refusedFile(file, metadata: nil, error)
        }
        let channels = runtime.channels
        let path = file.path
        let transfers = self.transfers
        return register({ () async throws(WCFailure) -> WCSessionFileTransfer in
            transfers.object(for: try await channels.transferFile(at: path, metadata: encoded), url: file, channels: channels, isTransferring: true)
        }, refused: { refusedFile(file, metadata: encoded, $0) })
    }

    /// `outstandingFileTransfers`, each with its current `progress`: empty before activation.
    var outstandingFileTransfers: [WCSessionFileTransfer] {
        guard let runtime = session.activeRuntime else { return [] }
        let channels = runtime.channels
        let (outstanding, progress) = EngineExecutor.shared.blockingCall { () -> ([OutgoingFile], FileTransferProgress?) in
            ((try? await channels.outstandingFileTransfers()) ?? [], await channels.outgoingFileProgress())
        }
        return outstanding.map { stored in
            let transfer = transfers.object(for: stored, channels: channels, isTransferring: true)
            if let progress, progress.transferId == stored.transferId { transfer.acknowledged(progress.acknowledged) }
            return transfer
        }
    }

    /// A file transfer that was not accepted: returned not transferring, and reported to `didFinish` with `error`.
    private func refusedFile(_ url: URL, metadata: PlistDictionary?, _ error: WCError) -> WCSessionFileTransfer {
        let transfer = WCSessionFileTransfer(
            transferId: nil, file: WCSessionFile(fileURL: url, metadata: metadata), size: 0, isTransferring: false, canceller: nil)
        session.logger.debug("file transfer refused", metadata: ["error": "\(error)"])
        session.notifyDelegate { session, delegate in
            delegate.session(session, didFinish: transfer, error: error)
        }
        return transfer
    }
}
