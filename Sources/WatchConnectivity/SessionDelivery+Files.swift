import Foundation
import WatchPairCore
import WatchPairHost
import WatchPairWire

// Files: received ones handed to `didReceive file` from the app's `files/` directory, finished ones to
// `didFinish fileTransfer`, and the progress of the file in flight kept in its transfer object.
extension SessionDelivery {
    /// Hands the oldest received file to the delegate: lands it in the app's `files/` directory, calls
    /// `didReceive file` and, once that returned, removes it there and in the store. One file at a time,
    /// so a crash mid-callback delivers that file again at the next activation, and nothing after it.
    func deliverFile() async throws(WCFailure) -> Bool {
        guard let file = try await channels.pendingFiles(limit: 1).first else { return false }
        session.state.withLock { $0.hasContentPending = true }
        let files = runtime.files
        let landed: String
        do {
            landed = try files.land(file)
        } catch {
            throw WCFailure(error.wcCode, "the received file \(file.offer.fileName) could not be handed to the app: \(error)")
        }
        let received = WCSessionFile(fileURL: URL(fileURLWithPath: landed), metadata: file.offer.metadata?.dictionary)
        await session.onDelegateQueue { session in
            session.delegate?.session(session, didReceive: received)
        }
        guard !Task.isCancelled else { return false }
        files.remove(landed)
        try await channels.acknowledgeFile(file.offer.transferId)
        return true
    }

    /// Reports finished file transfers to `didFinish fileTransfer` with the objects the app holds, then
    /// acknowledges them; a file the counterpart found corrupt is reported with 7014.
    func deliverFinishedFiles() async throws(WCFailure) -> Bool {
        let finished = try await channels.pendingFinishedFiles(limit: Self.batchSize)
        guard !finished.isEmpty else { return false }
        session.state.withLock { $0.hasContentPending = true }
        await session.transfers.waitForRegistrations()
        let reports = finished.map { stored -> (WCSessionFileTransfer, WCError?) in
            let transfer = session.transfers.object(for: stored, channels: channels, isTransferring: false)
            let received = stored.outcome == .received
            transfer.markFinished(completed: received)
            session.transfers.remove(stored.transferId)
            let error = received
                ? nil : WCError(.deliveryFailed, message: "The counterpart received \(stored.fileName) corrupt (checksum mismatch) and dropped it.")
            return (transfer, error)
        }
        await session.onDelegateQueue { session in
            for (transfer, error) in reports {
                session.delegate?.session(session, didFinish: transfer, error: error)
            }
        }
        guard !Task.isCancelled else { return false }
        try await channels.acknowledgeFinishedFiles(finished.map(\.transferId))
        return true
    }

    /// Keeps the `progress` of the file in flight up to date with the counterpart's acknowledgements,
    /// until cancelled.
    func followFileProgress() async {
        while !Task.isCancelled {
            let seen = channels.contentSignal.generation
            if let progress = await channels.outgoingFileProgress(),
                let transfer = session.transfers.fileObject(for: progress.transferId)
            {
                transfer.acknowledged(progress.acknowledged)
                session.fileProgressSignal.fire()
            }
            await channels.contentSignal.wait(after: seen)
        }
    }
}
