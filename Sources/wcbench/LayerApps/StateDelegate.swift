import Foundation
import WatchConnectivity

/// The driver's delegate before the layer takes over: wakes waiters on activation and reachability.
final class StateDelegate: NSObject, WCSessionDelegate, @unchecked Sendable {
    private let changes = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))

    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: (any Error)?) {
        changes.continuation.yield()
    }

    func sessionReachabilityDidChange(_ session: WCSession) { changes.continuation.yield() }

    /// Returns once `condition` holds (checked now and after each change). Bounded by wcbench, which
    /// kills the app at its phase deadline.
    @MainActor
    func waitUntil(_ condition: () -> Bool) async {
        if condition() { return }
        for await _ in changes.stream where condition() { return }
    }
}
