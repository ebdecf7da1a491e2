import WatchConnectivity

/// One `WCSessionDelegate` callback as a value: what a ``SessionRecorder`` reports, in the order the
/// session made the calls.
///
/// Every callback of `WCSessionDelegate` has a case. Values the app would read during the callback
/// (`isReachable`, the watch state, a received file's bytes) are read then and kept in the event.
/// Match a case, or take what a kind of event carries with its accessor:
/// `try await watch.first(\.userInfo)` (``SessionRecorder/first(within:_:)``).
public enum WCSessionEvent: Sendable, Equatable, CustomStringConvertible {
    /// `session(_:activationDidCompleteWith:error:)`: `.activated`, or `.notActivated` with the reason.
    case activationCompleted(WCSessionActivationState, error: WCError?)
    /// `sessionDidBecomeInactive(_:)`.
    case becameInactive
    /// `sessionDidDeactivate(_:)`.
    case deactivated
    /// `sessionWatchStateDidChange(_:)` (phone side), with the state read during the call.
    case watchStateChanged(WatchStateSnapshot)
    /// `sessionCompanionAppInstalledDidChange(_:)` (watch side), with `isCompanionAppInstalled` then.
    case companionAppInstalledChanged(Bool)
    /// `sessionReachabilityDidChange(_:)`, with `isReachable` read during the call.
    case reachabilityChanged(Bool)
    /// `session(_:didReceiveMessage:)` or `session(_:didReceiveMessage:replyHandler:)`.
    case receivedMessage(ReceivedMessage)
    /// `session(_:didReceiveMessageData:)` or `session(_:didReceiveMessageData:replyHandler:)`.
    case receivedMessageData(ReceivedMessageData)
    /// `session(_:didReceiveApplicationContext:)`.
    case receivedApplicationContext(WCPayload)
    /// `session(_:didReceiveUserInfo:)`.
    case receivedUserInfo(WCPayload)
    /// `session(_:didReceive:)`, with the file's bytes read during the call (the session removes it after).
    case receivedFile(ArrivedFile)
    /// `session(_:didFinish:error:)` for a userInfo transfer this app started.
    case finishedUserInfoTransfer(UserInfoTransferResult)
    /// `session(_:didFinish:error:)` for a file transfer this app started.
    case finishedFileTransfer(FileTransferResult)

    /// The callback and what it carried, e.g. `receivedUserInfo {"item":"milk"}`.
    public var description: String {
        switch self {
        case .activationCompleted(let state, let error): "activationCompleted \(state)\(error.map { " \($0)" } ?? "")"
        case .becameInactive: "becameInactive"
        case .deactivated: "deactivated"
        case .watchStateChanged(let state): "watchStateChanged \(state)"
        case .companionAppInstalledChanged(let installed): "companionAppInstalledChanged \(installed)"
        case .reachabilityChanged(let reachable): "reachabilityChanged \(reachable)"
        case .receivedMessage(let message): "receivedMessage \(message)"
        case .receivedMessageData(let message): "receivedMessageData \(message)"
        case .receivedApplicationContext(let context): "receivedApplicationContext \(context)"
        case .receivedUserInfo(let userInfo): "receivedUserInfo \(userInfo)"
        case .receivedFile(let file): "receivedFile \(file)"
        case .finishedUserInfoTransfer(let result): "finishedUserInfoTransfer \(result)"
        case .finishedFileTransfer(let result): "finishedFileTransfer \(result)"
        }
    }
}

extension WCSessionEvent {
    /// The activation's outcome, for `.activationCompleted`.
    public var activationState: WCSessionActivationState? {
        if case .activationCompleted(let state, _) = self { state } else { nil }
    }

    /// `isReachable` after the change, for `.reachabilityChanged`.
    public var isReachable: Bool? {
        if case .reachabilityChanged(let reachable) = self { reachable } else { nil }
    }

    /// The watch state after the change, for `.watchStateChanged`.
    public var watchState: WatchStateSnapshot? {
        if case .watchStateChanged(let state) = self { state } else { nil }
    }

    /// The message, for `.receivedMessage`.
    public var message: ReceivedMessage? {
        if case .receivedMessage(let message) = self { message } else { nil }
    }

    /// The data message, for `.receivedMessageData`.
    public var messageData: ReceivedMessageData? {
        if case .receivedMessageData(let message) = self { message } else { nil }
    }

    /// The context, for `.receivedApplicationContext`.
    public var applicationContext: WCPayload? {
        if case .receivedApplicationContext(let context) = self { context } else { nil }
    }

    /// The dictionary, for `.receivedUserInfo`.
    public var userInfo: WCPayload? {
        if case .receivedUserInfo(let userInfo) = self { userInfo } else { nil }
    }

    /// The file, for `.receivedFile`.
    public var file: ArrivedFile? {
        if case .receivedFile(let file) = self { file } else { nil }
    }

    /// The finished transfer, for `.finishedUserInfoTransfer`.
    public var finishedUserInfo: UserInfoTransferResult? {
        if case .finishedUserInfoTransfer(let result) = self { result } else { nil }
    }

    /// The finished transfer, for `.finishedFileTransfer`.
    public var finishedFile: FileTransferResult? {
        if case .finishedFileTransfer(let result) = self { result } else { nil }
    }

    /// Whether this reports a change of state (reachability, installation, watch state) rather than
    /// content or activation.
    public var isStateChange: Bool {
        switch self {
        case .watchStateChanged, .companionAppInstalledChanged, .reachabilityChanged: true
        default: false
        }
    }
}
