import Foundation
import WatchConnection
import WatchConnectionWCSession
import WatchConnectivity

/// The watch app of the layer section. First a plain `WCSessionDelegate` that answers every message
/// with its own payload (the raw round trip); on the driver's `switch` message it creates its
/// `WatchConnection` (which takes the session's delegate over) and registers `BenchEcho`'s handler,
/// then answers, so the driver's first typed request finds the handler.
@MainActor
final class LayerResponder {
    /// The running responder: `WCSession` holds its delegate weakly, so something must hold the app.
    private static var running: LayerResponder?
    private var connection: WatchConnection?
    private let raw: RawEchoDelegate

    init() {
        raw = RawEchoDelegate()
    }

    /// Starts raw (or, with `layerOnly`, with the layer at once, `persisted` or in memory).
    func start(layerOnly: Bool, persisted: Bool) {
        Self.running = self
        if layerOnly {
            startLayer(persisted: persisted)
            return
        }
        raw.onSwitch = { [weak self] in self?.startLayer() }
        WCSession.default.delegate = raw
        WCSession.default.activate()
    }

    /// The layer over the same session: in memory (the default configuration), or `persisted` in its
    /// storage directory, as an app that must run each request once across its own kill -9 has it, so
    /// each response is recorded durably before it leaves (the second flush).
    func startLayer(persisted: Bool = false) {
        var configuration = WatchConnectionConfiguration()
        if persisted, let state = ProcessInfo.processInfo.environment["WATCHPAIR_STATE_DIR"] {
            configuration.storageDirectory = URL(fileURLWithPath: state)
        }
        let connection = WatchConnection(session: WCSession.default, configuration: configuration)
        connection.register(BenchEcho.self) { $0 }
        self.connection = connection
    }
}

/// Answers each message with itself; a `switch` message first runs `onSwitch` on the main actor.
final class RawEchoDelegate: NSObject, WCSessionDelegate, @unchecked Sendable {
    /// Set once before activation, read on the delegate queue.
    var onSwitch: (@MainActor () -> Void)?

    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: (any Error)?) {}

    func session(_ session: WCSession, didReceiveMessage message: [String: Any], replyHandler: @escaping ([String: Any]) -> Void) {
        if message[LayerDriver.switchKey] != nil, let onSwitch {
            DispatchQueue.main.sync { MainActor.assumeIsolated { onSwitch() } }
        }
        replyHandler(message)
    }
}
