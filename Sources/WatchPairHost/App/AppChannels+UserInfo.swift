import Foundation
import WatchPairCore
import WatchPairWire

// Outgoing userInfo and complication info.
extension AppChannels {
    /// Queues a userInfo transfer (`transferUserInfo`); returns once it is durable.
    public func transferUserInfo(_ payload: PlistDictionary) async throws(WCFailure) -> OutboxTransfer {
        try await engine.transferUserInfo(payload)
    }

    /// Queues the current complication info (`transferCurrentComplicationUserInfo`, the phone's); durable
    /// when it returns, plain userInfo once the day's budget is used.
    public func transferCurrentComplicationUserInfo(_ payload: PlistDictionary) async throws(WCFailure) -> OutboxTransfer {
        try await engine.transferCurrentComplicationUserInfo(payload)
    }

    /// Complication transfers left today (`remainingComplicationUserInfoTransfers`).
    public func remainingComplicationUserInfoTransfers() async -> Int {
        await engine.remainingComplicationUserInfoTransfers()
    }

    /// Transfers accepted and not yet received by the peer, oldest first (`outstandingUserInfoTransfers`).
    public func outstandingUserInfoTransfers() async throws(WCFailure) -> [OutboxTransfer] {
        try await engine.outstandingUserInfoTransfers()
    }

    /// Cancels an outstanding transfer; false when it is no longer outstanding.
    public func cancelUserInfo(_ transferId: UUID) async throws(WCFailure) -> Bool {
        try await engine.cancelUserInfo(transferId)
    }
}
