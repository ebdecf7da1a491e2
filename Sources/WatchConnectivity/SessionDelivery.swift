import Foundation
import WatchPairCore
import WatchPairHost
import WatchPairWire

/// The pump that hands what the engine holds for the app to the delegate — received userInfo, the
/// received context, finished transfers, received and finished files (`+Files`) — a page at a time, and acknowledges each page once its
/// callbacks have returned on the delegate queue, so what the app had not finished handling when it
/// stopped is delivered again at the next activation.
struct SessionDelivery: Sendable {
    /// At most this many stored items are handed to the delegate per page before they are acknowledged.
    static let batchSize = 64

    let session: WCSession
    let runtime: SessionRuntime

    var channels: AppChannels { runtime.channels }

    /// Delivers until cancelled, woken by the engine's app signal; never acknowledges after cancellation.
    ///
    /// Each kind is read when it changed since the last look, or when its last look delivered something
    /// (another page may wait); the first look, and the one after a failed read, reads every kind.
    func run() async {
        var looked: AppChanges.Marks?
        var again: [AppChanges.Kind] = []
        while !Task.isCancelled {
            let marks = channels.appChanges.marks
            var delivered: [AppChanges.Kind] = []
            do throws(WCFailure) {
                for kind in AppChanges.Kind.allCases where again.contains(kind) || marks.moved(kind, since: looked) {
                    if try await deliver(kind) { delivered.append(kind) }
                }
                looked = marks
            } catch {
                runtime.logger.info("reading received content from the store failed", metadata: ["error": "\(error)"])
                looked = nil
            }
            again = delivered
            if !delivered.isEmpty { continue }
            session.state.withLock { $0.hasContentPending = false }
            await channels.appSignal.wait(after: marks.generation)
        }
    }

    /// Hands what waits of one kind to the delegate; true when something was delivered.
    private func deliver(_ kind: AppChanges.Kind) async throws(WCFailure) -> Bool {
        switch kind {
        case .userInfo: try await deliverUserInfo()
        case .context: try await deliverContext()
        case .finished: try await deliverFinished()
        case .receivedFiles: try await deliverFile()
        case .finishedFiles: try await deliverFinishedFiles()
        }
    }

    private func deliverUserInfo() async throws(WCFailure) -> Bool {
        let batch = try await channels.pendingUserInfo(limit: Self.batchSize)
        guard let last = batch.last else { return false }
        session.state.withLock { $0.hasContentPending = true }
        await session.onDelegateQueue { session in
            for transfer in batch {
                let userInfo = PropertyListBridge.object(from: transfer.payload)
                session.delegate?.session(session, didReceiveUserInfo: userInfo)
            }
        }
        guard !Task.isCancelled else { return false }
        try await channels.acknowledgeUserInfo(upTo: last.deliveryId)
        return true
    }

    private func deliverContext() async throws(WCFailure) -> Bool {
        guard let context = try await channels.pendingContext() else { return false }
        session.state.withLock { state in
            state.hasContentPending = true
            state.receivedApplicationContext = context.payload
        }
        await session.onDelegateQueue { session in
            session.delegate?.session(session, didReceiveApplicationContext: PropertyListBridge.object(from: context.payload))
        }
        guard !Task.isCancelled else { return false }
        try await channels.acknowledgeContext(version: context.version)
        return true
    }

    private func deliverFinished() async throws(WCFailure) -> Bool {
        let finished = try await channels.pendingFinished(limit: Self.batchSize)
        guard !finished.isEmpty else { return false }
        session.state.withLock { $0.hasContentPending = true }
        await session.transfers.waitForRegistrations()
        let transfers = finished.map { stored in
            let transfer = session.transfers.object(for: stored, channels: channels, isTransferring: false)
            transfer.markFinished()
            session.transfers.remove(stored.transferId)
            return transfer
        }
        await session.onDelegateQueue { session in
            for transfer in transfers {
                session.delegate?.session(session, didFinish: transfer, error: nil)
            }
        }
        guard !Task.isCancelled else { return false }
        try await channels.acknowledgeFinished(finished.map(\.transferId))
        return true
    }
}
