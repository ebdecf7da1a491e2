import Foundation
import WatchConnection
import WatchPairHost
import WatchPairWire

/// `health`, `queue`, `queueCancel`, `connect`, `disconnect`: the layer's state as control results.
extension AppConnection {
    /// `{"health", "isHealthy", "requiresUserIntervention", "connectionMode", "activated", "reachable",
    /// "pendingRequests", "heldRequests", "runningRequests", "suggestions": [{"suggestion", "title", "message", "severity"}]}`.
    func health() async -> JSONValue {
        let connection = await connection()
        // Counts that reflect every session event reported so far (a message just handed over included).
        await connection.waitUntilSessionEventsHandled()
        return .object([
            "health": .string(connection.sessionHealth.rawValue),
            "isHealthy": .bool(connection.sessionHealth.isHealthy),
            "requiresUserIntervention": .bool(connection.sessionHealth.requiresUserIntervention),
            "connectionMode": .string(connection.connectionMode.rawValue),
            "activated": .bool(connection.currentConnectionStatus.isActivated),
            "reachable": .bool(connection.isReachable),
            "pendingRequests": .integer(Int64(connection.pendingRequestCount)),
            "heldRequests": .integer(Int64(connection.heldRequestCount)),
            "runningRequests": .integer(Int64(connection.runningRequestCount)),
            "suggestions": .array(recentSuggestions.map { suggestion in
                .object([
                    "suggestion": .string("\(suggestion)"), "title": .string(suggestion.title),
                    "message": .string(suggestion.message), "severity": .string("\(suggestion.severity)"),
                ])
            }),
        ])
    }

    /// `{"requests": [{"requestId", "type", "strategy", "enqueuedAt"}]}`, oldest first.
    func queue() async -> JSONValue {
        let connection = await connection()
        return .object([
            "requests": .array(connection.queuedRequests.map { request in
                let (seconds, attoseconds) = request.enqueuedAt.components
                let enqueuedAt = Date(timeIntervalSince1970: Double(seconds) + Double(attoseconds) / 1e18)
                return .object([
                    "requestId": .string(request.id.uuidString), "type": .string(request.requestType),
                    "strategy": .string(request.strategy.rawValue), "enqueuedAt": ControlJSON.timestamp(enqueuedAt),
                ])
            })
        ])
    }

    /// Cancels the queued request `id` (nil: all of them); `{"cancelled": n}`.
    func cancelQueued(_ id: UUID?) async -> JSONValue {
        let connection = await connection()
        let before = connection.pendingRequestCount
        if let id { connection.cancelQueuedRequest(id: id) } else { connection.cancelAllQueuedRequests() }
        return .object(["cancelled": .integer(Int64(before - connection.pendingRequestCount))])
    }

    /// `connect()` or `disconnect()`; `{"connectionMode"}`.
    func setMode(_ mode: ConnectionMode) async -> JSONValue {
        let connection = await connection()
        if mode == .active { await connection.connect() } else { connection.disconnect() }
        return .object(["connectionMode": .string(connection.connectionMode.rawValue)])
    }
}
