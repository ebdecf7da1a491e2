import Synchronization
import WatchConnectivity

/// A `WCSessionDelegate` that reports every callback as a ``WCSessionEvent``, for a test to await:
/// `try await recorder.first(\.userInfo)`, `try await recorder.next()`, or `for try await event in
/// recorder.events`.
///
/// Install it as a session's delegate (``WCSessionPair/activate(_:forwardingTo:within:)`` does, and keeps
/// it alive): events are kept from then on, in the order the session called, until a test takes them
/// (bound: ``bufferLimit`` unread). Each event is handed out once: a wait that skips events (``first(where:within:)``)
/// consumes them. Waiting never polls: a waiting task is resumed by the callback itself.
///
/// To test the app's own delegate, pass it as `forwardingTo`: every callback goes to it first, exactly
/// as the session made it, and is recorded once it returns (so when the test sees the event, the app
/// has handled it). Message callbacks the app does not implement still fail the sender with 7014.
/// Without a delegate to forward to, the recorder accepts every message and the test answers it through
/// the event (``ReceivedMessage/reply(_:)``); a message it never answers gets 7012 after the reply timeout.
///
/// `@unchecked Sendable`: the forwarded delegate, not `Sendable` itself, is only called on the session's
/// delegate queue, one callback at a time, as the session calls any delegate.
public final class SessionRecorder: NSObject, WCSessionDelegate, @unchecked Sendable {
    /// The most unread events kept; later ones are dropped and the next wait throws ``EventQueueOverflow``.
    public static let bufferLimit = 10_000

    /// The app's delegate that each callback is passed to, if any (called on the delegate queue only).
    private let forwardedDelegate: (any WCSessionDelegate)?
    let queue = EventQueue<WCSessionEvent>(limit: SessionRecorder.bufferLimit)
    /// How this recorder's waits are bounded (its pair's, once installed by one).
    private let pairWaits = Mutex<(any SessionWaits)?>(nil)

    /// A recorder that passes each callback to `delegate` (held strongly) before recording it.
    public init(forwardingTo delegate: (any WCSessionDelegate)? = nil) {
        forwardedDelegate = delegate
        super.init()
    }

    /// Bounds this recorder's waits as `waits` does (a pair's self-driving clock).
    func use(_ waits: any SessionWaits) {
        pairWaits.withLock { $0 = waits }
    }

    var waits: (any SessionWaits)? { pairWaits.withLock { $0 } }

    private func record(_ event: WCSessionEvent) {
        queue.append(event)
    }

    // MARK: - WCSessionDelegate

    /// Records ``WCSessionEvent/activationCompleted(_:error:)``.
    public func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: (any Error)?) {
        forwardedDelegate?.session(session, activationDidCompleteWith: activationState, error: error)
        record(.activationCompleted(activationState, error: WCError(reported: error)))
    }

    /// Records ``WCSessionEvent/becameInactive``.
    public func sessionDidBecomeInactive(_ session: WCSession) {
        forwardedDelegate?.sessionDidBecomeInactive(session)
        record(.becameInactive)
    }

    /// Records ``WCSessionEvent/deactivated``.
    public func sessionDidDeactivate(_ session: WCSession) {
        forwardedDelegate?.sessionDidDeactivate(session)
        record(.deactivated)
    }

    /// Records ``WCSessionEvent/watchStateChanged(_:)`` with the state now.
    public func sessionWatchStateDidChange(_ session: WCSession) {
        forwardedDelegate?.sessionWatchStateDidChange(session)
        record(.watchStateChanged(WatchStateSnapshot(of: session)))
    }

    /// Records ``WCSessionEvent/companionAppInstalledChanged(_:)`` with `isCompanionAppInstalled` now.
    public func sessionCompanionAppInstalledDidChange(_ session: WCSession) {
        forwardedDelegate?.sessionCompanionAppInstalledDidChange(session)
        record(.companionAppInstalledChanged(session.isCompanionAppInstalled))
    }

    /// Records ``WCSessionEvent/reachabilityChanged(_:)`` with `isReachable` now.
    public func sessionReachabilityDidChange(_ session: WCSession) {
        forwardedDelegate?.sessionReachabilityDidChange(session)
        record(.reachabilityChanged(session.isReachable))
    }

    /// Records ``WCSessionEvent/receivedMessage(_:)``, expecting no reply.
    public func session(_ session: WCSession, didReceiveMessage message: [String: Any]) {
        forwardedDelegate?.session(session, didReceiveMessage: message)
        record(.receivedMessage(ReceivedMessage(Self.payload(message), replyHandler: nil)))
    }

    /// Records ``WCSessionEvent/receivedMessage(_:)`` with its reply handler.
    public func session(
        _ session: WCSession, didReceiveMessage message: [String: Any], replyHandler: @escaping ([String: Any]) -> Void
    ) {
        forwardedDelegate?.session(session, didReceiveMessage: message, replyHandler: replyHandler)
        record(.receivedMessage(ReceivedMessage(Self.payload(message), replyHandler: replyHandler)))
    }

    /// Records ``WCSessionEvent/receivedMessageData(_:)``, expecting no reply.
    public func session(_ session: WCSession, didReceiveMessageData messageData: Data) {
        forwardedDelegate?.session(session, didReceiveMessageData: messageData)
        record(.receivedMessageData(ReceivedMessageData(messageData, replyHandler: nil)))
    }

    /// Records ``WCSessionEvent/receivedMessageData(_:)`` with its reply handler.
    public func session(_ session: WCSession, didReceiveMessageData messageData: Data, replyHandler: @escaping (Data) -> Void) {
        forwardedDelegate?.session(session, didReceiveMessageData: messageData, replyHandler: replyHandler)
        record(.receivedMessageData(ReceivedMessageData(messageData, replyHandler: replyHandler)))
    }

    /// Records ``WCSessionEvent/receivedApplicationContext(_:)``.
    public func session(_ session: WCSession, didReceiveApplicationContext applicationContext: [String: Any]) {
        forwardedDelegate?.session(session, didReceiveApplicationContext: applicationContext)
        record(.receivedApplicationContext(Self.payload(applicationContext)))
    }

    /// Records ``WCSessionEvent/receivedUserInfo(_:)``.
    public func session(_ session: WCSession, didReceiveUserInfo userInfo: [String: Any]) {
        forwardedDelegate?.session(session, didReceiveUserInfo: userInfo)
        record(.receivedUserInfo(Self.payload(userInfo)))
    }

    /// Records ``WCSessionEvent/finishedUserInfoTransfer(_:)``.
    public func session(_ session: WCSession, didFinish userInfoTransfer: WCSessionUserInfoTransfer, error: (any Error)?) {
        forwardedDelegate?.session(session, didFinish: userInfoTransfer, error: error)
        let result = UserInfoTransferResult(
            transfer: userInfoTransfer, userInfo: (try? WCPayload(userInfoTransfer.userInfo)) ?? [:], error: WCError(reported: error))
        record(.finishedUserInfoTransfer(result))
    }

    /// Records ``WCSessionEvent/receivedFile(_:)``, with the file's bytes read before the forwarded delegate runs.
    public func session(_ session: WCSession, didReceive file: WCSessionFile) {
        // Read first: the forwarded delegate may move the file, and the session removes it afterwards.
        let arrived = ArrivedFile(
            fileURL: file.fileURL, metadata: file.metadata.flatMap { try? WCPayload($0) },
            contents: (try? Data(contentsOf: file.fileURL)) ?? Data())
        forwardedDelegate?.session(session, didReceive: file)
        record(.receivedFile(arrived))
    }

    /// Records ``WCSessionEvent/finishedFileTransfer(_:)``.
    public func session(_ session: WCSession, didFinish fileTransfer: WCSessionFileTransfer, error: (any Error)?) {
        forwardedDelegate?.session(session, didFinish: fileTransfer, error: error)
        record(.finishedFileTransfer(FileTransferResult(transfer: fileTransfer, error: WCError(reported: error))))
    }

    /// What the session delivered, always a property list.
    private static func payload(_ dictionary: [String: Any]) -> WCPayload {
        (try? WCPayload(dictionary)) ?? [:]
    }
}
