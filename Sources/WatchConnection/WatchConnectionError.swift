/// Why a request, a wait or a recovery failed. Every case is definite: the request did not run, or
/// (for `timeout` after a fallback) it was handed to a durable channel and will run at most once.
public enum WatchConnectionError: Error, Sendable, Hashable {
    /// The session is not activated (or did not activate in time); 7004.
    case notActivated
    /// The counterpart is not reachable and the delivery mode is `.immediate`; 7007.
    case notReachable
    /// The retry policy's timeout (or a wait's timeout) ran out before an answer.
    case timeout
    /// Cancelled: by `cancelQueuedRequest(id:)`, `cancelAllQueuedRequests()`, `disconnect()`, or the
    /// calling task's cancellation.
    case cancelled
    /// The request waited in the queue longer than the queue's expiry (1 h by default) and was removed.
    case expired
    /// The queue was full: this request was the oldest and was dropped to make room.
    case dropped
    /// The encoded request is over the channel's limit; nothing was sent. 7009.
    case payloadTooLarge(size: Int, limit: Int)
    /// The request or response could not be encoded as JSON.
    case encodingFailed(description: String)
    /// The response (or the envelope around it) could not be decoded.
    case decodingFailed(description: String)
    /// The receiver has no handler for this request type (the type is named).
    case handlerNotRegistered(requestType: String)
    /// The receiver's handler threw; `description` is the error it threw, as text.
    case handlerError(requestType: String, description: String)
    /// The session refused or failed the transfer with a `WCErrorDomain` code (7001…7019).
    case sessionError(code: Int, description: String)
    /// The persisted request queue could not be written; the request was not queued.
    case queueStorageFailed(description: String)

    /// A `WCErrorDomain`-style code for logs and events: the session's code where there is one,
    /// 7004, 7007 and 7009 for their cases, 7012 for `timeout`, 7001 for the rest.
    public var code: Int {
        switch self {
        case .notActivated: 7004
        case .notReachable: 7007
        case .timeout: 7012
        case .payloadTooLarge: 7009
        case .sessionError(let code, _): code
        case .handlerNotRegistered, .handlerError: 7014
        case .cancelled, .expired, .dropped, .encodingFailed, .decodingFailed, .queueStorageFailed: 7001
        }
    }

    /// Whether the session refused the request itself (7008 invalid parameter, 7009 payload too large,
    /// 7010 unsupported types): sending it again, or on another channel, fails the same way.
    public var blamesRequest: Bool {
        guard case .sessionError(let code, _) = self else { return false }
        return [7008, 7009, 7010].contains(code)
    }

    /// An error of the session (`WCError`, or any `NSError` of `WCErrorDomain`) as this layer reports it.
    public init(sessionError error: any Error) {
        if let error = error as? WatchConnectionError {
            self = error
            return
        }
        let bridged = error as NSError
        guard bridged.domain == "WCErrorDomain" else {
            self = .sessionError(code: 7001, description: String(describing: error))
            return
        }
        switch bridged.code {
        case 7004: self = .notActivated
        default: self = .sessionError(code: bridged.code, description: bridged.localizedDescription)
        }
    }
}

extension WatchConnectionError: CustomStringConvertible {
    /// A sentence naming the failure.
    public var description: String {
        switch self {
        case .notActivated: "The session is not activated."
        case .notReachable: "The counterpart app is not reachable."
        case .timeout: "The request timed out."
        case .cancelled: "The request was cancelled."
        case .expired: "The request expired in the queue."
        case .dropped: "The request was dropped: the queue was full and it was the oldest."
        case .payloadTooLarge(let size, let limit): "The request is \(size) bytes, over the limit of \(limit)."
        case .encodingFailed(let description): "Encoding failed: \(description)"
        case .decodingFailed(let description): "Decoding failed: \(description)"
        case .handlerNotRegistered(let type): "The receiver has no handler for request type '\(type)'."
        case .handlerError(let type, let description): "The handler of '\(type)' failed: \(description)"
        case .sessionError(let code, let description): "Session error \(code): \(description)"
        case .queueStorageFailed(let description): "The request queue could not be stored: \(description)"
        }
    }
}

import Foundation
