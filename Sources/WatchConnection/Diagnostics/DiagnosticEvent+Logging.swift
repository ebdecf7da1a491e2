import Logging

extension DiagnosticEvent {
    /// The log level: failures and losses at warning, the rest at info or debug (a library logs at
    /// info or below, except what the operator must see).
    var level: Logger.Level {
        switch self {
        case .deliveryFailed(_, _, let willRetry): willRetry ? .info : .warning
        case .requestExpired, .requestDropped, .recoveryFailed, .storageFileSetAside: .warning
        case .messageSent, .duplicateSuppressed: .debug
        default: .info
        }
    }

    /// A sentence for `MESSAGE`.
    var sentence: String {
        switch self {
        case .sessionActivated: "Session activated"
        case .sessionDeactivated: "Session deactivated"
        case .reachabilityChanged(let reachable): reachable ? "Counterpart reachable" : "Counterpart not reachable"
        case .messageSent(let type, let duration): "Request \(type) answered in \(duration)"
        case .deliveryFailed(let type, let error, let willRetry): "Request \(type) failed: \(error)\(willRetry ? "; retrying" : "")"
        case .fallbackUsed(let from, let to): "Request fell back from \(from.rawValue) to \(to.rawValue)"
        case .requestQueued(let type, let size): "Request \(type) queued (\(size) waiting)"
        case .queueFlushed(let count): "Flushed \(count) queued requests"
        case .requestExpired(let type, _): "Request \(type) expired while waiting (queued, or held for a handler)"
        case .requestDropped(let type, _): "Full: dropped the oldest waiting request (\(type))"
        case .requestHeld(let type, _): "Request \(type) held until a handler for it registers"
        case .duplicateSuppressed(let type, _): "Repeat of request \(type) answered from its recorded response"
        case .healthChanged(let from, let to): "Session health \(from.rawValue) -> \(to.rawValue)"
        case .recoverySuggested(let suggestion): "Suggested: \(suggestion.title)"
        case .recoveryAttempted: "Recovery attempted"
        case .recoverySucceeded: "Recovery succeeded"
        case .recoveryFailed(let error): "Recovery failed: \(error)"
        case .storageFileSetAside(let path, let reason): "Unreadable file set aside as \(path): \(reason)"
        }
    }

    /// The journal fields that apply (docs/WatchConnection.md, "Streams and events").
    var metadata: Logger.Metadata {
        var fields: Logger.Metadata = ["WC_EVENT": "\(name)"]
        switch self {
        case .messageSent(let type, let duration):
            fields["WC_REQUEST_TYPE"] = "\(type)"
            let (seconds, attoseconds) = duration.components
            fields["WC_DURATION_US"] = "\(seconds * 1_000_000 + attoseconds / 1_000_000_000_000)"
        case .deliveryFailed(let type, let error, _):
            fields["WC_REQUEST_TYPE"] = "\(type)"
            fields["WC_ERROR_CODE"] = "\(error.code)"
        case .fallbackUsed(_, let to): fields["WC_STRATEGY"] = "\(to.rawValue)"
        case .requestQueued(let type, _): fields["WC_REQUEST_TYPE"] = "\(type)"
        case .requestExpired(let type, let id), .requestDropped(let type, let id), .duplicateSuppressed(let type, let id),
            .requestHeld(let type, let id):
            fields["WC_REQUEST_TYPE"] = "\(type)"
            fields["WC_REQUEST_ID"] = "\(id.uuidString)"
        case .healthChanged(_, let to): fields["WC_HEALTH"] = "\(to.rawValue)"
        case .recoveryFailed(let error): fields["WC_ERROR_CODE"] = "\(error.code)"
        default: break
        }
        return fields
    }
}
