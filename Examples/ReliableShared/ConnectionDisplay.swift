import ExampleConsole
import Foundation
import WatchConnection

/// What both apps show of their `WatchConnection`: a status line, the health, recovery suggestions and
/// the layer's diagnostic events. In a real app these are a status bar, a banner and an alert; here each
/// is a `Console` line.
@MainActor
public enum ConnectionDisplay {
    /// Starts showing `connection` (three tasks, for the app's lifetime).
    public static func show(_ connection: WatchConnection) {
        Task { await showStatusLine(connection) }
        Task { await showSuggestions(connection) }
        Task { await showDiagnostics(connection) }
    }

    /// One `status` line for the current status, then one per change.
    static func showStatusLine(_ connection: WatchConnection) async {
        for await status in connection.connectionState {
            Console.report("status", [
                "text": statusText(status),
                "activated": status.isActivated,
                "reachable": status.isReachable,
                "canSendMessages": status.canSendMessages,
                "canUseBackgroundTransfers": status.canUseBackgroundTransfers,
            ])
        }
    }

    /// What the status bar says.
    static func statusText(_ status: ConnectionStatus) -> String {
        if status.canSendMessages { return "Connected" }
        if status.canUseBackgroundTransfers { return "Not reachable: requests wait" }
        return "Offline"
    }

    /// The health now, and what it asks of the user (`health` line).
    public static func showHealth(_ connection: WatchConnection) {
        let health = connection.sessionHealth
        Console.report("health", [
            "health": health.rawValue,
            "isHealthy": health.isHealthy,
            "requiresUserIntervention": health.requiresUserIntervention,
            "queued": connection.pendingRequestCount,
        ])
    }

    /// One `suggestion` line per recovery suggestion; how prominent it would be on screen is its severity.
    static func showSuggestions(_ connection: WatchConnection) async {
        for await suggestion in connection.recoverySuggestions {
            let presentation = switch suggestion.severity {
            case .minor: "hint"
            case .moderate: "warning"
            case .major, .critical: "alert"
            }
            Console.report("suggestion", [
                "suggestion": suggestion.rawValue, "title": suggestion.title, "message": suggestion.message,
                "severity": "\(suggestion.severity)", "presentation": presentation,
            ])
        }
    }

    /// One `diagnostic` line per event of the layer; a health change also shows the health.
    static func showDiagnostics(_ connection: WatchConnection) async {
        for await event in connection.diagnosticEvents {
            Console.report("diagnostic", ["event": event.name].merging(details(of: event)) { $1 })
            if case .healthChanged = event { showHealth(connection) }
        }
    }

    /// The fields of an event worth a line.
    static func details(of event: DiagnosticEvent) -> [String: Any] {
        switch event {
        case .reachabilityChanged(let reachable): ["reachable": reachable]
        case .messageSent(let type, let duration): ["type": type, "ms": duration / .milliseconds(1)]
        case .deliveryFailed(let type, let error, let willRetry): ["type": type, "code": error.code, "willRetry": willRetry]
        case .fallbackUsed(let from, let to): ["from": from.rawValue, "to": to.rawValue]
        case .requestQueued(let type, let size): ["type": type, "size": size]
        case .queueFlushed(let count): ["count": count]
        case .requestExpired(let type, _), .requestDropped(let type, _), .duplicateSuppressed(let type, _), .requestHeld(let type, _):
            ["type": type]
        case .healthChanged(let from, let to): ["from": from.rawValue, "to": to.rawValue]
        case .recoverySuggested(let suggestion): ["suggestion": suggestion.rawValue]
        case .recoveryFailed(let error): ["code": error.code]
        case .storageFileSetAside(let path, let reason): ["path": path, "reason": reason]
        case .sessionActivated, .sessionDeactivated, .recoveryAttempted, .recoverySucceeded: [:]
        }
    }
}
