import Foundation

/// The methods a `WCSession` calls to report activation, state changes and everything that arrives.
///
/// As on Apple's platforms, only `session(_:activationDidCompleteWith:error:)` is required; every other
/// method has a default implementation (Swift's stand-in for Objective-C's `optional`), so implement
/// only what the app uses. The session calls every method serially on one private serial queue (never
/// the main thread), in the order the events happened; reply and error handlers of `sendMessage` run on
/// the same queue.
///
/// A message whose callback the delegate does not implement is refused: its sender gets 7014
/// (`deliveryFailed`), as on Apple's devices. So implement `session(_:didReceiveMessage:replyHandler:)`
/// for counterparts that send with a reply handler, and `session(_:didReceiveMessage:)` for those that
/// send without one.
public protocol WCSessionDelegate: NSObjectProtocol {
    /// Activation finished: `activationState` is `.activated`, or `.notActivated` with the reason in `error`.
    ///
    /// Called once per `activate()`, before any other callback of that activation.
    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: (any Error)?)

    /// The session became inactive: its engine stopped (for example its link socket failed).
    /// Apple calls this on iOS when the user switches watches. Pending deliveries may still arrive.
    func sessionDidBecomeInactive(_ session: WCSession)

    /// The session is deactivated (`activationState` is `.notActivated`); call `activate()` to start again.
    func sessionDidDeactivate(_ session: WCSession)

    /// iOS: `isPaired`, `isWatchAppInstalled` or `isComplicationEnabled` changed (the watch app was
    /// installed or removed: its link socket appeared or vanished). Called on the phone side only.
    func sessionWatchStateDidChange(_ session: WCSession)

    /// watchOS: `isCompanionAppInstalled` changed. Called on the watch side only.
    func sessionCompanionAppInstalledDidChange(_ session: WCSession)

    /// `isReachable` changed. Not called for the value found at activation.
    func sessionReachabilityDidChange(_ session: WCSession)

    /// A message sent without a reply handler arrived.
    func session(_ session: WCSession, didReceiveMessage message: [String: Any])

    /// A message sent with a reply handler arrived: call `replyHandler` exactly once, from any thread,
    /// now or later (within the sender's timeout, 10 s by default). Later calls are ignored.
    func session(_ session: WCSession, didReceiveMessage message: [String: Any], replyHandler: @escaping ([String: Any]) -> Void)

    /// A data message sent without a reply handler arrived.
    func session(_ session: WCSession, didReceiveMessageData messageData: Data)

    /// A data message sent with a reply handler arrived: call `replyHandler` exactly once.
    func session(_ session: WCSession, didReceiveMessageData messageData: Data, replyHandler: @escaping (Data) -> Void)

    /// The counterpart's newest application context arrived (also `receivedApplicationContext`).
    ///
    /// Called at activation for a context that arrived while the app was not running.
    func session(_ session: WCSession, didReceiveApplicationContext applicationContext: [String: Any])

    /// A `transferUserInfo` dictionary arrived. Each transfer is delivered once, in the sender's order.
    ///
    /// Called at activation for transfers that arrived while the app was not running, or whose callback
    /// had not returned when the app last stopped.
    func session(_ session: WCSession, didReceiveUserInfo userInfo: [String: Any])

    /// A transfer this app started finished (the counterpart has it), or failed with `error`.
    ///
    /// Called at activation for transfers that finished while the app was not running.
    func session(_ session: WCSession, didFinish userInfoTransfer: WCSessionUserInfoTransfer, error: (any Error)?)

    /// A file arrived. Each file is delivered once, whole and verified, in the sender's order among files.
    ///
    /// `file.fileURL` is in the app's `files/` directory and is removed when this method returns: move or
    /// copy it to keep it. Called at activation for files that arrived while the app was not running, or
    /// whose callback had not returned when the app last stopped.
    func session(_ session: WCSession, didReceive file: WCSessionFile)

    /// A file transfer this app started finished (the counterpart holds it, verified), or failed with
    /// `error` (7014 when the counterpart found the bytes corrupt; a refused transfer's error).
    ///
    /// Called at activation for transfers that finished while the app was not running.
    func session(_ session: WCSession, didFinish fileTransfer: WCSessionFileTransfer, error: (any Error)?)
}

extension WCSessionDelegate {
    /// Default: nothing.
    public func sessionDidBecomeInactive(_ session: WCSession) {}

    /// Default: nothing.
    public func sessionDidDeactivate(_ session: WCSession) {}

    /// Default: nothing.
    public func sessionWatchStateDidChange(_ session: WCSession) {}

    /// Default: nothing.
    public func sessionCompanionAppInstalledDidChange(_ session: WCSession) {}

    /// Default: nothing.
    public func sessionReachabilityDidChange(_ session: WCSession) {}

    /// Default: not implemented — the sender gets 7014 (`deliveryFailed`).
    public func session(_ session: WCSession, didReceiveMessage message: [String: Any]) {
        session.callbacks.notImplemented()
    }

    /// Default: not implemented — the sender gets 7014 (`deliveryFailed`).
    public func session(
        _ session: WCSession, didReceiveMessage message: [String: Any], replyHandler: @escaping ([String: Any]) -> Void
    ) {
        session.callbacks.notImplemented()
    }

    /// Default: not implemented — the sender gets 7014 (`deliveryFailed`).
    public func session(_ session: WCSession, didReceiveMessageData messageData: Data) {
        session.callbacks.notImplemented()
    }

    /// Default: not implemented — the sender gets 7014 (`deliveryFailed`).
    public func session(_ session: WCSession, didReceiveMessageData messageData: Data, replyHandler: @escaping (Data) -> Void) {
        session.callbacks.notImplemented()
    }

    /// Default: nothing (the context is still available as `receivedApplicationContext`).
    public func session(_ session: WCSession, didReceiveApplicationContext applicationContext: [String: Any]) {}

    /// Default: nothing (the transfer counts as delivered).
    public func session(_ session: WCSession, didReceiveUserInfo userInfo: [String: Any]) {}

    /// Default: nothing.
    public func session(_ session: WCSession, didFinish userInfoTransfer: WCSessionUserInfoTransfer, error: (any Error)?) {}

    /// Default: nothing (the file counts as delivered and is removed).
    public func session(_ session: WCSession, didReceive file: WCSessionFile) {}

    /// Default: nothing.
    public func session(_ session: WCSession, didFinish fileTransfer: WCSessionFileTransfer, error: (any Error)?) {}
}
