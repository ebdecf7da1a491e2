import Foundation
import WatchPairWire

/// What arrived for the app stays in the store until the app acknowledges it, so an app that was not
/// running (or crashed while handling it) is given it again at its next launch. `appSignal` fires
/// whenever there is something new; consumers read after their cursor and acknowledge.
extension PairEngine {
    /// Received userInfo transfers of `queue` (the app's by default) not yet acknowledged, in arrival order.
    public func pendingUserInfo(after deliveryId: UInt64 = 0, limit: Int = 256, queue: InboxQueue = .app) async throws(WCFailure) -> [InboxTransfer] {
        let transfers = try await StoreError.reported { () async throws(StoreError) in
            try await store.inbox(after: deliveryId, limit: limit, queue: queue)
        }
        return quirks.isEmpty || queue != .app ? transfers : quirkView(transfers)
    }

    /// ``pendingUserInfo(after:limit:queue:)``, and the delivery id up to which the inbox was looked at:
    /// the next read of `queue` continues after it (``PairStore/inboxScan(after:limit:queue:)``).
    public func pendingUserInfoScan(after deliveryId: UInt64, limit: Int = 256, queue: InboxQueue) async throws(WCFailure) -> (transfers: [InboxTransfer], through: UInt64) {
        try await StoreError.reported { () async throws(StoreError) in try await store.inboxScan(after: deliveryId, limit: limit, queue: queue) }
    }

    /// `queue`'s reader (the app by default) has handled every one of its transfers up to `deliveryId`;
    /// other queues' transfers stay.
    public func acknowledgeUserInfo(upTo deliveryId: UInt64, queue: InboxQueue = .app) async throws(WCFailure) {
        try await StoreError.reported { () async throws(StoreError) in try await store.consumeInbox(upTo: deliveryId, queue: queue) }
        // Space in the inbox may let a sender that was refused resume: the driver links back at once,
        // without backoff (``LinkPolicy/holdOff(_:peerRefusing:owesRoomNow:)``).
        contentSignal.fire()
    }

    /// Transfers the peer acknowledged whose didFinish the app has not been told about, with seq > `after`,
    /// oldest first. Transfers finish in seq order, so a reader keeps the last seq it showed as its cursor.
    public func pendingFinished(after seq: UInt64 = 0, limit: Int = 256) async throws(WCFailure) -> [OutboxTransfer] {
        try await StoreError.reported { () async throws(StoreError) in try await store.unreportedFinished(after: seq, limit: limit) }
    }

    /// The app has been told these transfers finished.
    public func acknowledgeFinished(_ transferIds: [UUID]) async throws(WCFailure) {
        try await StoreError.reported { () async throws(StoreError) in try await store.markFinishedReported(transferIds) }
    }

    /// The app has been told these userInfo and file transfers finished (one list may name both kinds):
    /// both are forgotten in one transaction.
    public func acknowledgeFinishedTransfers(_ transferIds: [UUID]) async throws(WCFailure) {
        try await StoreError.reported { () async throws(StoreError) in try await store.markFinishedReported(transferIds, includingFiles: true) }
    }

    /// The received context, if the app has not been given this version yet.
    public func pendingContext() async throws(WCFailure) -> StoredContext? {
        let read = try await StoreError.reported { () async throws(StoreError) -> (StoredContext, UInt64)? in
            guard let received = try await store.contexts.receivedContext() else { return nil }
            return (received, try await store.contexts.contextDeliveredVersion())
        }
        guard let (received, delivered) = read else { return nil }
        guard quirks.isEmpty else { return quirkPendingContext(received, delivered: delivered) }
        return received.version > delivered ? received : nil
    }

    /// The app has been given context `version`.
    public func acknowledgeContext(version: UInt64) async throws(WCFailure) {
        try await StoreError.reported { () async throws(StoreError) in try await store.contexts.markContextDelivered(version: version) }
        if !quirks.isEmpty { quirks.replayContext = false }
    }
}
