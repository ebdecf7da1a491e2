import Foundation
import Synchronization
import WatchConnection
import WatchConnectivity

/// The `WCSessionDelegate` of a `WCSessionAdapter`: turns every callback into a `SessionEvent`.
///
/// `WCSession` calls it serially on its delegate queue, so events reach the receiver in order.
final class EventDelegate: NSObject, WCSessionDelegate, Sendable {
    /// Where events go; replaced by each `activate(reportingTo:)`.
    let receiver = Mutex<Receiver?>(nil)

    /// The receiving closure in a struct: a bare closure read through the generic `Mutex` is wrapped in
    /// fresh reabstraction thunks on every access, so each event would cost more than the one before.
    struct Receiver: Sendable {
        let report: @Sendable (SessionEvent) -> Void
    }

    private func report(_ event: SessionEvent) {
        receiver.withLock { $0 }?.report(event)
    }

    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: (any Error)?) {
        let state = SessionActivationState(rawValue: activationState.rawValue) ?? .notActivated
        report(.activationCompleted(state, error: error))
    }

    func sessionDidBecomeInactive(_ session: WCSession) { report(.deactivated) }
    /// Re-activates, as Apple's sample code does: after a watch switch (docs/Watches.md) a session that is
    /// not activated again stays deactivated, and the layer with it.
    func sessionDidDeactivate(_ session: WCSession) {
        report(.deactivated)
        session.activate()
    }
    func sessionReachabilityDidChange(_ session: WCSession) { report(.stateChanged) }
    func sessionWatchStateDidChange(_ session: WCSession) { report(.stateChanged) }
    func sessionCompanionAppInstalledDidChange(_ session: WCSession) { report(.stateChanged) }

    func session(_ session: WCSession, didReceiveMessage message: [String: Any]) {
        report(.message(WCSessionAdapter.strings(message), reply: nil))
    }

    func session(_ session: WCSession, didReceiveMessage message: [String: Any], replyHandler: @escaping ([String: Any]) -> Void) {
        // WCSession's reply handler may be called from any thread, once; the layer calls it at most once.
        nonisolated(unsafe) let reply = replyHandler
        report(.message(WCSessionAdapter.strings(message), reply: { reply($0) }))
    }

    func session(_ session: WCSession, didReceiveUserInfo userInfo: [String: Any]) {
        report(.userInfo(WCSessionAdapter.strings(userInfo)))
    }

    func session(_ session: WCSession, didReceiveApplicationContext applicationContext: [String: Any]) {
        report(.applicationContext(WCSessionAdapter.strings(applicationContext)))
    }
}
