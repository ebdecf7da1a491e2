import Foundation
import WatchPairCore
import WatchPairWire

// What arrived or finished for the app, kept until the app acknowledges it: read a page after a
// cursor, hand it over, acknowledge it (so what was not handled is given again at the next launch).
extension AppChannels {
    /// Received userInfo of `queue` (the app's by default) not yet acknowledged, in arrival order.
    public func pendingUserInfo(
        after deliveryId: UInt64 = 0, limit: Int = 256, queue: InboxQueue = .app
    ) async throws(WCFailure) -> [InboxTransfer] {
        try await engine.pendingUserInfo(after: deliveryId, limit: limit, queue: queue)
    }

    /// ``pendingUserInfo(after:limit:queue:)`` and the delivery id the next read continues after.
    public func pendingUserInfoScan(
        after deliveryId: UInt64, limit: Int = 256, queue: InboxQueue
    ) async throws(WCFailure) -> (transfers: [InboxTransfer], through: UInt64) {
        try await engine.pendingUserInfoScan(after: deliveryId, limit: limit, queue: queue)
    }

    /// `queue`'s reader has handled its received userInfo up to `deliveryId`.
    public func acknowledgeUserInfo(upTo deliveryId: UInt64, queue: InboxQueue = .app) async throws(WCFailure) {
        try await engine.acknowledgeUserInfo(upTo: deliveryId, queue: queue)
    }

    /// Routes each userInfo received from now on by `route`, once, on arrival (before the host runs), so
    /// its queue has one reader.
    public func routeInbox(_ route: InboxRoute) {
        engine.routeInbox(route)
    }

    /// The received context, when the app has not been given this version yet.
    public func pendingContext() async throws(WCFailure) -> StoredContext? {
        try await engine.pendingContext()
    }

    /// The app has been given context `version`.
    public func acknowledgeContext(version: UInt64) async throws(WCFailure) {
        try await engine.acknowledgeContext(version: version)
    }

    /// userInfo transfers the peer received whose didFinish the app was not told, seq > `after`, oldest first.
    public func pendingFinished(after seq: UInt64 = 0, limit: Int = 256) async throws(WCFailure) -> [OutboxTransfer] {
        try await engine.pendingFinished(after: seq, limit: limit)
    }

    /// The app has been told these userInfo transfers finished.
    public func acknowledgeFinished(_ transferIds: [UUID]) async throws(WCFailure) {
        try await engine.acknowledgeFinished(transferIds)
    }

    /// The app has been told these userInfo and file transfers finished (one transaction).
    public func acknowledgeFinishedTransfers(_ transferIds: [UUID]) async throws(WCFailure) {
        try await engine.acknowledgeFinishedTransfers(transferIds)
    }

    /// Files the receiver ended whose didFinish the app was not told (`outcome` says how), seq > `after`.
    public func pendingFinishedFiles(after seq: UInt64 = 0, limit: Int = 256) async throws(WCFailure) -> [OutgoingFile] {
        try await engine.pendingFinishedFiles(after: seq, limit: limit)
    }

    /// The app has been told these files finished.
    public func acknowledgeFinishedFiles(_ transferIds: [UUID]) async throws(WCFailure) {
        try await engine.acknowledgeFinishedFiles(transferIds)
    }

    /// Received files the app has not taken, oldest first, each whole and verified.
    public func pendingFiles(limit: Int = 64) async throws(WCFailure) -> [IncomingFile] {
        try await engine.pendingFiles(limit: limit)
    }

    /// The app is done with a received file: it is deleted.
    public func acknowledgeFile(_ transferId: UUID) async throws(WCFailure) {
        try await engine.acknowledgeFile(transferId)
    }
}
