import WatchConnection
import WatchPairCore
import WatchPairWire

/// The reliability layer's events as the daemon's diagnostic events (docs/Systemd.md, "journald"), of the kinds of
/// ``LayerEventKind`` with the layer's ``DiagnosticEvent/RequestFields``: journald with a `MESSAGE_ID`
/// each (systemd/watchpair.catalog), stderr, and `wcctl events`.
enum LayerEvents {
    /// The daemon's event for `record`, or nil for the layer's session events (activation and
    /// reachability), which the engine reports itself. The record's request id and attempt become
    /// `WC_REQUEST_ID` and `WC_ATTEMPT`.
    static func diagnostic(_ record: DiagnosticRecord, role: Role) -> WatchPairCore.DiagnosticEvent? {
        typealias Fields = WatchPairCore.DiagnosticEvent.RequestFields
        let made: (WatchPairCore.DiagnosticEvent.Kind, String, Fields, WCErrorCode?, Duration?)
        switch record.event {
        case .sessionActivated, .sessionDeactivated, .reachabilityChanged:
            return nil
        case .messageSent(let type, let duration):
            made = (.requestSent, "request \(type) answered", Fields(type: type), nil, duration)
        case .deliveryFailed(let type, let error, let willRetry):
            made = (.deliveryFailed, "request \(type) failed: \(error)\(willRetry ? "; retrying" : "")", Fields(type: type), code(error), nil)
        case .fallbackUsed(let from, let to):
            made = (.fallbackUsed, "a request fell back from \(from.rawValue) to \(to.rawValue)", Fields(strategy: to.rawValue), nil, nil)
        case .requestQueued(let type, let size):
            made = (.requestQueued, "request \(type) queued (\(size) waiting)", Fields(type: type), nil, nil)
        case .queueFlushed(let count):
            made = (.queueFlushed, "flushed \(count) queued requests", Fields(), nil, nil)
        case .requestExpired(let type, let id):
            made = (.requestExpired, "request \(type) expired while waiting (queued, or held for a handler)", Fields(type: type, id: id), nil, nil)
        case .requestDropped(let type, let id):
            made = (.requestDropped, "full: dropped the oldest waiting request (\(type))", Fields(type: type, id: id), nil, nil)
        case .requestHeld(let type, let id):
            made = (.requestHeld, "request \(type) held until a handler for it registers", Fields(type: type, id: id), nil, nil)
        case .duplicateSuppressed(let type, let id):
            made = (.duplicateSuppressed, "repeat of request \(type) answered from its recorded response", Fields(type: type, id: id), nil, nil)
        case .healthChanged(let from, let to):
            made = (.healthChanged, "session health \(from.rawValue) -> \(to.rawValue)", Fields(health: to.rawValue), nil, nil)
        case .recoverySuggested(let suggestion):
            made = (.recoverySuggested, "suggested: \(suggestion.title)", Fields(), nil, nil)
        case .recoveryAttempted:
            made = (.recoveryAttempted, "recovery attempted", Fields(), nil, nil)
        case .recoverySucceeded:
            made = (.recoverySucceeded, "recovery succeeded", Fields(), nil, nil)
        case .recoveryFailed(let error):
            made = (.recoveryFailed, "recovery failed: \(error)", Fields(), code(error), nil)
        case .storageFileSetAside(let path, let reason):
            made = (.storageFileSetAside, "unreadable file set aside as \(path): \(reason)", Fields(), nil, nil)
        }
        var fields = made.2
        fields.id = fields.id ?? record.requestID
        fields.attempt = record.attempt
        return WatchPairCore.DiagnosticEvent(made.0, role: role, made.1, errorCode: made.3, duration: made.4, request: fields)
    }

    private static func code(_ error: WatchConnectionError) -> WCErrorCode? {
        WCErrorCode(rawValue: error.code)
    }
}
