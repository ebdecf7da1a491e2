import Foundation
import Testing
import WatchConnection

@testable import WatchPairDaemon

/// The layer's records as the daemon's events: the request id and attempt reach `WC_REQUEST_ID` and
/// `WC_ATTEMPT` (docs/WatchConnection.md).
@Suite("Layer events in the daemon")
struct LayerEventsTests {
    @Test func aFailedAttemptKeepsItsNumberAndRequest() throws {
        let id = UUID()
        let record = DiagnosticRecord(.deliveryFailed(type: "Greet", error: .notReachable, willRetry: true), requestID: id, attempt: 2)
        let event = try #require(LayerEvents.diagnostic(record, role: .phone))
        #expect(event.request?.type == "Greet" && event.request?.id == id && event.request?.attempt == 2)
        #expect(event.errorCode?.rawValue == 7007)
    }

    @Test func anEventNamingItsRequestKeepsThatId() throws {
        let id = UUID()
        let event = try #require(LayerEvents.diagnostic(DiagnosticRecord(.requestHeld(type: "Sync", id: id)), role: .watch))
        #expect(event.request?.id == id && event.request?.attempt == nil)
    }

    @Test func sessionEventsAreLeftToTheEngine() {
        #expect(LayerEvents.diagnostic(DiagnosticRecord(.reachabilityChanged(true)), role: .phone) == nil)
    }
}
