import Foundation
import WatchPairWire

/// The error domain of every error this module reports, as on Apple's platforms.
public let WCErrorDomain: String = "WCErrorDomain"

/// An error of the Watch Connectivity session, bridged to `NSError` as Apple's `WCError` is.
///
/// Values are what `sendMessage`'s error handler, `updateApplicationContext` and
/// `session(_:didFinish:error:)` report. Match them as on Apple's platforms:
///
/// ```swift
/// if let error = error as? WCError, error.code == .notReachable { … }
/// catch WCError.payloadTooLarge { … }
/// (error as NSError).domain == WCErrorDomain && (error as NSError).code == 7007
/// ```
///
/// `localizedDescription` is the sentence the engine gave (what failed and why).
public struct WCError: CustomNSError, Hashable, Sendable {
    /// Apple's `WCErrorCode` values (7001…7019), with Apple's case names.
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        /// An unknown problem.
        case genericError = 7001
        /// Watch Connectivity is not supported here (no role is configured).
        case sessionNotSupported = 7002
        /// The session has no delegate; set one before activating or sending.
        case sessionMissingDelegate = 7003
        /// The session is not activated yet (or no longer).
        case sessionNotActivated = 7004
        /// No counterpart is configured.
        case deviceNotPaired = 7005
        /// The watch app is not installed (uninstalled, or its socket unit masked or without a unit file).
        case watchAppNotInstalled = 7006
        /// The counterpart app is not reachable for live messages.
        case notReachable = 7007
        /// A parameter is invalid.
        case invalidParameter = 7008
        /// The payload is over the channel's size limit.
        case payloadTooLarge = 7009
        /// The payload holds a value that is not a property-list type.
        case payloadUnsupportedTypes = 7010
        /// The reply could not be delivered.
        case messageReplyFailed = 7011
        /// No reply arrived in time.
        case messageReplyTimedOut = 7012
        /// File access was denied (not reported here: a missing or unreadable file is 7008, naming the path).
        case fileAccessDenied = 7013
        /// The content could not be delivered (e.g. the receiver does not implement that message callback).
        case deliveryFailed = 7014
        /// A bounded queue or the disk is full.
        case insufficientSpace = 7015
        /// The session is inactive.
        case sessionInactive = 7016
        /// A transfer timed out.
        case transferTimedOut = 7017
        /// The companion (phone) app is not installed.
        case companionAppNotInstalled = 7018
        /// The app is a watch-only app.
        case watchOnlyApp = 7019
    }

    /// The error code.
    public let code: Code
    /// A sentence for a person; becomes `NSLocalizedDescriptionKey`.
    let message: String

    /// An error with `code` and Apple's generic wording for it.
    public init(_ code: Code) {
        self.init(code, message: code.defaultMessage)
    }

    /// An error with `code` and `userInfo` (its `NSLocalizedDescriptionKey` string, if any, is kept).
    public init(_ code: Code, userInfo: [String: Any]) {
        self.init(code, message: (userInfo[NSLocalizedDescriptionKey] as? String) ?? code.defaultMessage)
    }

    /// An error with `code` and a specific sentence.
    init(_ code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// Bridges an `NSError` of domain `WCErrorDomain`; any other error becomes `genericError`.
    public init(_nsError error: NSError) {
        let code = error.domain == WCErrorDomain ? Code(rawValue: error.code) ?? .genericError : .genericError
        self.init(code, message: error.localizedDescription)
    }

    /// The engine's failure as the API reports it.
    init(_ failure: WCFailure) {
        self.init(Code(rawValue: failure.code.rawValue) ?? .genericError, message: failure.message)
    }

    /// `"WCErrorDomain"`.
    public static var errorDomain: String { WCErrorDomain }
    /// The numeric code, e.g. 7007.
    public var errorCode: Int { code.rawValue }
    /// `NSLocalizedDescriptionKey`: the sentence describing the failure.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
    /// The same values as `errorUserInfo`.
    public var userInfo: [String: Any] { errorUserInfo }
    /// The bridged `NSError` (domain `WCErrorDomain`, code, user info).
    public var _nsError: NSError {
        NSError(domain: WCErrorDomain, code: code.rawValue, userInfo: errorUserInfo)
    }
    /// The sentence describing the failure.
    public var localizedDescription: String { message }
}

extension WCError: CustomStringConvertible {
    /// `WCError 7007 (notReachable): …`.
    public var description: String { "WCError \(code.rawValue) (\(code)): \(message)" }
}

// Apple exposes every code as a static member of `WCError`, so `catch WCError.notReachable` and
// `error.code == WCError.notReachable` compile.
extension WCError {
    /// 7001.
    public static var genericError: Code { .genericError }
    /// 7002.
    public static var sessionNotSupported: Code { .sessionNotSupported }
    /// 7003.
    public static var sessionMissingDelegate: Code { .sessionMissingDelegate }
    /// 7004.
    public static var sessionNotActivated: Code { .sessionNotActivated }
    /// 7005.
    public static var deviceNotPaired: Code { .deviceNotPaired }
    /// 7006.
    public static var watchAppNotInstalled: Code { .watchAppNotInstalled }
    /// 7007.
    public static var notReachable: Code { .notReachable }
    /// 7008.
    public static var invalidParameter: Code { .invalidParameter }
    /// 7009.
    public static var payloadTooLarge: Code { .payloadTooLarge }
    /// 7010.
    public static var payloadUnsupportedTypes: Code { .payloadUnsupportedTypes }
    /// 7011.
    public static var messageReplyFailed: Code { .messageReplyFailed }
    /// 7012.
    public static var messageReplyTimedOut: Code { .messageReplyTimedOut }
    /// 7013.
    public static var fileAccessDenied: Code { .fileAccessDenied }
    /// 7014.
    public static var deliveryFailed: Code { .deliveryFailed }
    /// 7015.
    public static var insufficientSpace: Code { .insufficientSpace }
    /// 7016.
    public static var sessionInactive: Code { .sessionInactive }
    /// 7017.
    public static var transferTimedOut: Code { .transferTimedOut }
    /// 7018.
    public static var companionAppNotInstalled: Code { .companionAppNotInstalled }
    /// 7019.
    public static var watchOnlyApp: Code { .watchOnlyApp }
}

/// Lets `catch WCError.notReachable` (and `case WCError.Code.notReachable` on an `Error`) match, as
/// Foundation's bridged error codes do on Apple's platforms.
public func ~= (code: WCError.Code, error: any Error) -> Bool {
    if let error = error as? WCError { return error.code == code }
    let bridged = error as NSError
    return bridged.domain == WCErrorDomain && bridged.code == code.rawValue
}

extension WCError.Code {
    /// Apple's wording, used when no more specific sentence is known.
    var defaultMessage: String {
        switch self {
        case .genericError: "An unknown error occurred."
        case .sessionNotSupported: "WatchConnectivity is not supported on this device."
        case .sessionMissingDelegate: "The session is missing its delegate."
        case .sessionNotActivated: "The session has not been activated."
        case .deviceNotPaired: "The device is not paired."
        case .watchAppNotInstalled: "The watch app is not installed."
        case .notReachable: "The counterpart app is not reachable."
        case .invalidParameter: "A parameter is invalid."
        case .payloadTooLarge: "The payload is too large."
        case .payloadUnsupportedTypes: "The payload contains unsupported types."
        case .messageReplyFailed: "The message reply failed."
        case .messageReplyTimedOut: "The message reply timed out."
        case .fileAccessDenied: "File access was denied."
        case .deliveryFailed: "Delivery failed."
        case .insufficientSpace: "There is not enough space."
        case .sessionInactive: "The session is inactive."
        case .transferTimedOut: "The transfer timed out."
        case .companionAppNotInstalled: "The companion app is not installed."
        case .watchOnlyApp: "The app is a watch-only app."
        }
    }
}
