/// A way real devices deviate from WatchConnectivity's documented contract, reproduced on demand.
///
/// Each is off until set (`QuirkMachine`), is decided by a seeded draw at the place the behaviour lives
/// (reachability reports, the message and reply path, userInfo and context delivery, installation
/// state), and is reported as a `quirkInjected` event naming it. docs/Quirks.md teaches each one: the
/// field report, what breaks, how to defend.
public enum Quirk: String, CaseIterable, Sendable, Hashable, Codable {
    /// `isReachable` reads true while messages fail with 7007.
    case phantomReachability
    /// The watch sees the phone reachable while the phone sees the watch not reachable.
    case asymmetricReachability
    /// The reply arrives after the sender's 7012: it is dropped and logged, never a second outcome.
    case lateReply
    /// The sender gets the reply and then an error for the same message.
    case replyAndError
    /// The receiver ran its handler, but the reply never arrives: 7012 at the timeout.
    case lostReply
    /// A userInfo transfer is delivered to the app twice.
    case duplicateUserInfo
    /// The last received application context is delivered again at every activation.
    case contextReplay
    /// userInfo transfers stay outstanding until the next transfer or a restart of the sender.
    case stuckUserInfo
    /// `isWatchAppInstalled` / `isCompanionAppInstalled` reads false for a moment after launch.
    case installedFlapping
    /// Background content (userInfo, context, files) arrives after a delay drawn from `QuirkSetting.delay`.
    case delayedDelivery

    /// One line on what the quirk does, as `wcctl quirk list` prints it.
    public var summary: String {
        switch self {
        case .phantomReachability: "isReachable reads true, but messages fail with 7007"
        case .asymmetricReachability: "the watch sees the phone reachable, the phone sees the watch not"
        case .lateReply: "the reply arrives after the sender's 7012 timeout: dropped and logged"
        case .replyAndError: "the sender gets the reply and then an error for the same message"
        case .lostReply: "the handler runs, the reply never arrives: 7012 at the timeout"
        case .duplicateUserInfo: "a userInfo transfer is delivered to the app twice"
        case .contextReplay: "the last received context is delivered again at every activation"
        case .stuckUserInfo: "transfers stay outstanding until the next transfer or a sender restart"
        case .installedFlapping: "the counterpart app reads not installed for a moment after launch"
        case .delayedDelivery: "userInfo, context and files arrive after a drawn delay"
        }
    }

    /// Where the quirk was reported in the field (the issue, pull request or radar).
    public var fieldReport: String {
        switch self {
        case .phantomReachability: "BookPlayer #703/#737; openradar 23337218; WatchConnectivitySwift FlakyWCSession"
        case .asymmetricReachability: "SundialKit WATCHCONNECTIVITY_DIAGNOSTICS"
        case .lateReply: "home-assistant/iOS #3202"
        case .replyAndError: "SundialKit PR #84; WatchLink \"callback twice\""
        case .lostReply: "home-assistant/iOS #4992"
        case .duplicateUserInfo: "react-native-watch-connectivity #40, #87"
        case .contextReplay: "SundialKitStream StaleWindow"
        case .stuckUserInfo: "openradar 25767669"
        case .installedFlapping: "SundialKit diagnostics; WatchConnectivitySwift notes"
        case .delayedDelivery: "Communicator #20, #25"
        }
    }

    /// The quirk named `name` (its raw value, e.g. `lateReply`), or an error listing the names.
    public init(named name: String) throws(QuirkError) {
        guard let quirk = Quirk(rawValue: name) else { throw .unknownQuirk(name) }
        self = quirk
    }
}
