// An app written against WatchConnectivitySwift's documented reliability API, as its guide shows it.
// Only the import differs: this target must keep compiling and passing.
import Foundation
import Observation
import WatchConnection

struct FetchRecipe: WatchRequest {
    typealias Response = Recipe
    let id: String
}

struct Recipe: Codable, Sendable, Equatable {
    let id: String
    let title: String
}

/// Analytics don't need responses.
struct LogEvent: FireAndForgetRequest {
    let name: String
    let parameters: [String: String]
}

/// A status view model observing the connection state.
@MainActor
@Observable
final class ConnectionStatusViewModel {
    private(set) var statusText = "Offline"
    private(set) var canSend = false
    private let connection: WatchConnection

    init(connection: WatchConnection) {
        self.connection = connection
    }

    func observe() async {
        for await status in connection.connectionState {
            if status.canSendMessages {
                statusText = "Connected"
            } else if status.canUseBackgroundTransfers {
                statusText = "Queued delivery"
            } else {
                statusText = "Offline"
            }
            canSend = status.canSendMessages
            if status.canSendMessages { return }
        }
    }
}

/// Fetches with the patient policy and handles errors gracefully.
@MainActor
final class RecipeLoader {
    private let connection: WatchConnection
    private(set) var message = ""

    init(connection: WatchConnection) {
        self.connection = connection
    }

    func load(_ id: String) async -> Recipe? {
        do {
            let recipe = try await connection.send(FetchRecipe(id: id), retryPolicy: .patient)
            return recipe
        } catch WatchConnectionError.timeout {
            message = "Timed out. Try again."
        } catch WatchConnectionError.notReachable {
            message = "Your watch is offline."
        } catch {
            message = "Failed: \(error)"
        }
        return nil
    }

    func logScreenView() async {
        await connection.send(LogEvent(name: "screen_view", parameters: [:]))
    }
}

/// A health monitor reading recovery suggestions.
@MainActor
final class HealthMonitor {
    private let connection: WatchConnection
    private(set) var alerts: [(title: String, message: String)] = []

    init(connection: WatchConnection) {
        self.connection = connection
    }

    var needsAttention: Bool { !connection.sessionHealth.isHealthy }

    func watchSuggestions(limit: Int) async {
        for await suggestion in connection.recoverySuggestions {
            switch suggestion.severity {
            case .minor, .moderate, .major, .critical:
                alerts.append((suggestion.title, suggestion.message))
            }
            if alerts.count == limit { return }
        }
    }

    func recoverIfNeeded() async {
        if connection.sessionHealth.requiresUserIntervention {
            await connection.attemptRecovery()
        }
    }
}
