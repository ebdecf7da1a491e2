import Foundation
import WatchPairCore
import WatchPairHost
import WatchPairWire

extension WCSession {
    /// Sends a live message to the counterpart (docs/Design.md, "Messages").
    ///
    /// Exactly one of `replyHandler` or `errorHandler` is called, once, on the delegate queue — with a
    /// reply handler: the counterpart's reply or an error; without one: nothing on success, `errorHandler`
    /// on failure. Errors: 7003/7004 (session not ready), 7010 (not a property list), 7009 (over 64 KiB),
    /// 7007 (counterpart not reachable), 7012 (no reply within 10 s), 7014 (the counterpart does not
    /// implement that callback, or the link dropped before the answer).
    public func sendMessage(
        _ message: [String: Any],
        replyHandler: (([String: Any]) -> Void)?,
        errorHandler: ((any Error) -> Void)? = nil
    ) {
        MessageSend.send(from: self, { () throws(WCError) in .dictionary(try PropertyListBridge.plist(from: message)) },
                         replyHandler: replyHandler, errorHandler: errorHandler) { reply in
            guard case .dictionary(let dictionary) = reply else { return nil }
            return PropertyListBridge.object(from: dictionary)
        }
    }

    /// Sends a live data message; same rules as `sendMessage(_:replyHandler:errorHandler:)`.
    public func sendMessageData(
        _ data: Data,
        replyHandler: ((Data) -> Void)?,
        errorHandler: ((any Error) -> Void)? = nil
    ) {
        MessageSend.send(from: self, { () throws(WCError) in .data(data) }, replyHandler: replyHandler, errorHandler: errorHandler) { reply in
            guard case .data(let data) = reply else { return nil }
            return data
        }
    }

    /// Replaces the application context sent to the counterpart; returns once it is durable.
    ///
    /// The counterpart ends with the newest value (intermediate ones may be skipped); a value identical
    /// to the last one sent is not sent again; `[:]` clears it. Throws `WCError`: 7003/7004/7016 (session
    /// not ready), 7010 (not a property list), 7009 (over 256 KiB), 7015 (disk full).
    public func updateApplicationContext(_ applicationContext: [String: Any]) throws {
        try TransferCalls(session: self).updateApplicationContext(applicationContext)
    }

    /// Queues `userInfo` for delivery to the counterpart (docs/Design.md, "userInfo"); returns once the
    /// transfer is durable on disk.
    ///
    /// The counterpart receives every transfer exactly once, in order, whenever it can — also across
    /// crashes and restarts of either side. `session(_:didFinish:error:)` reports when it arrived (on the
    /// next launch if the app was not running). A transfer that cannot be accepted — session not ready
    /// (7003/7004/7016), not a property list (7010), over 64 KiB (7009), outbox full (7015) — is returned
    /// with `isTransferring == false` and reported to `session(_:didFinish:error:)` with the error.
    @discardableResult
    public func transferUserInfo(_ userInfo: [String: Any] = [:]) -> WCSessionUserInfoTransfer {
        TransferCalls(session: self).queueUserInfo(userInfo) { (channels, payload) async throws(WCFailure) -> OutboxTransfer in
            try await channels.transferUserInfo(payload)
        }
    }

    /// Phone side: sends complication data to the watch app (`transferCurrentComplicationUserInfo`), as a
    /// userInfo flagged `isCurrentComplicationInfo`, delivered to the watch's
    /// `session(_:didReceiveUserInfo:)` in order with the other userInfo, durable like them.
    ///
    /// Each call uses one of `remainingComplicationUserInfoTransfers` (50 a UTC day by default); at 0 the
    /// transfer still goes, as a plain userInfo (`isCurrentComplicationInfo` false), as Apple does. Refused
    /// as `transferUserInfo` is (the same checks), and also with 7008 on the watch side and with 7001
    /// while `isComplicationEnabled` is false ("fails immediately"): returned with `isTransferring ==
    /// false` and reported to `session(_:didFinish:error:)`.
    @discardableResult
    public func transferCurrentComplicationUserInfo(_ userInfo: [String: Any] = [:]) -> WCSessionUserInfoTransfer {
        TransferCalls(session: self).queueUserInfo(userInfo) { (channels, payload) async throws(WCFailure) -> OutboxTransfer in
            try await channels.transferCurrentComplicationUserInfo(payload)
        }
    }

    /// Phone side: complication transfers left today (UTC days on the session's clock); 0 on the watch,
    /// before activation and while `isComplicationEnabled` is false, as Apple reports it.
    public var remainingComplicationUserInfoTransfers: Int {
        TransferCalls(session: self).remainingComplicationUserInfoTransfers
    }

    /// Transfers accepted and not yet received by the counterpart, oldest first. Blocks until the engine
    /// has read them from its store. Empty before activation.
    public var outstandingUserInfoTransfers: [WCSessionUserInfoTransfer] {
        TransferCalls(session: self).outstandingUserInfoTransfers
    }
}
