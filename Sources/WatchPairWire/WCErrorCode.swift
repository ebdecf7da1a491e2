/// Apple's `WCError` codes, used unchanged everywhere: API, wire, control socket, journald, exit codes.
///
/// The raw value is Apple's numeric code (`WCErrorCodeNotReachable` = 7007, …), so a value can be
/// printed, logged and compared with what an iOS developer sees on a device.
public enum WCErrorCode: Int, Sendable, Hashable, CaseIterable, Codable {
    /// An unknown error occurred.
    case genericError = 7001
    /// The session has not been activated.
    case sessionNotActivated = 7004
    /// The device is not paired (no peer is configured).
    case deviceNotPaired = 7005
    /// The watch app is not installed (the watch's peer-link socket does not exist).
    case watchAppNotInstalled = 7006
    /// The counterpart app is not reachable for live messaging.
    case notReachable = 7007
    /// A parameter is invalid (including a malformed frame or control request).
    case invalidParameter = 7008
    /// The payload is larger than the channel's limit.
    case payloadTooLarge = 7009
    /// The payload holds a value that is not a property-list type.
    case payloadUnsupportedTypes = 7010
    /// The receiver's reply could not be delivered.
    case messageReplyFailed = 7011
    /// No reply arrived within the timeout.
    case messageReplyTimedOut = 7012
    /// The content could not be delivered (for messages: no handler for that variant on the receiver).
    case deliveryFailed = 7014
    /// Not enough space: a bounded queue or the disk is full.
    case insufficientSpace = 7015
    /// The session is inactive (being switched or deactivated).
    case sessionInactive = 7016
    /// A transfer timed out.
    case transferTimedOut = 7017
    /// The companion (phone) app is not installed.
    case companionAppNotInstalled = 7018

    /// Apple's constant name without the `WCErrorCode` prefix, e.g. `notReachable`.
    public var name: String {
        switch self {
        case .genericError: "genericError"
        case .sessionNotActivated: "sessionNotActivated"
        case .deviceNotPaired: "deviceNotPaired"
        case .watchAppNotInstalled: "watchAppNotInstalled"
        case .notReachable: "notReachable"
        case .invalidParameter: "invalidParameter"
        case .payloadTooLarge: "payloadTooLarge"
        case .payloadUnsupportedTypes: "payloadUnsupportedTypes"
        case .messageReplyFailed: "messageReplyFailed"
        case .messageReplyTimedOut: "messageReplyTimedOut"
        case .deliveryFailed: "deliveryFailed"
        case .insufficientSpace: "insufficientSpace"
        case .sessionInactive: "sessionInactive"
        case .transferTimedOut: "transferTimedOut"
        case .companionAppNotInstalled: "companionAppNotInstalled"
        }
    }

    /// The process exit status `wcctl` uses for this code: `100 + (code − 7000)`.
    public var exitStatus: Int32 { Int32(100 + (rawValue - 7000)) }
}

/// An error that crosses the boundary to a user of the link: a `WCError` code and a sentence.
///
/// Local runtime failures (a socket that will not bind, a corrupt store) are separate error types;
/// they are mapped to a `WCFailure` only where a caller of the channel API must see them.
public struct WCFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// Apple's error code.
    public var code: WCErrorCode
    /// What went wrong, as one sentence for a person.
    public var message: String

    /// A failure with `code` and a one-sentence `message`.
    public init(_ code: WCErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `WCError 7007 (notReachable): <message>`.
    public var description: String { "WCError \(code.rawValue) (\(code.name)): \(message)" }
}
