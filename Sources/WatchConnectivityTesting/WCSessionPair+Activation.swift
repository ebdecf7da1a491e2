import WatchConnectivity
import WatchPairWire

extension WCSessionPair {
    /// Activates `role`'s session with a new ``SessionRecorder`` as its delegate, and returns the recorder
    /// once `session(_:activationDidCompleteWith:error:)` reported `.activated`.
    ///
    /// The recorder passes every callback on to `delegate` (the app's own, if the test has one); the pair
    /// keeps both alive until it is released (a session holds its delegate weakly). The activation event
    /// is taken; every later callback waits in the recorder. Activating a side again (after
    /// `shutdown()` of that session) installs a fresh recorder.
    ///
    /// - Throws: The activation's `WCError` when it did not activate; `TimedOut` after `limit`.
    @discardableResult
    public func activate(
        _ role: Role, forwardingTo delegate: (any WCSessionDelegate)? = nil, within limit: Duration = SessionRecorder.defaultLimit
    ) async throws -> SessionRecorder {
        try await activate(session(role), key: role.rawValue, forwardingTo: delegate, within: limit)
    }

    /// Activates `session` with a new recorder kept under `key`; see ``activate(_:forwardingTo:within:)``.
    func activate(
        _ session: WCSession, key: String, forwardingTo delegate: (any WCSessionDelegate)?, within limit: Duration
    ) async throws -> SessionRecorder {
        let recorder = SessionRecorder(forwardingTo: delegate)
        recorder.use(waits)
        recorders.withLock { $0[key] = recorder }
        session.delegate = recorder
        session.activate()
        let event = try await recorder.next(within: limit)
        switch event {
        case .activationCompleted(.activated, _):
            return recorder
        case .activationCompleted(_, let error?):
            throw error
        default:
            throw WCError(.genericError, userInfo: [NSLocalizedDescriptionKey: "expected activation, got \(event)"])
        }
    }

    /// Activates the phone's session, then the watch's (each as ``activate(_:forwardingTo:within:)``
    /// does), and returns their recorders once each sees the other reachable.
    ///
    /// The reachability callbacks of the linking wait in the recorders (``WCSessionEvent/isStateChange``).
    @discardableResult
    public func activate(
        phone phoneDelegate: (any WCSessionDelegate)? = nil, watch watchDelegate: (any WCSessionDelegate)? = nil,
        within limit: Duration = SessionRecorder.defaultLimit
    ) async throws -> (phone: SessionRecorder, watch: SessionRecorder) {
        let phone = try await activate(.phone, forwardingTo: phoneDelegate, within: limit)
        let watch = try await activate(.watch, forwardingTo: watchDelegate, within: limit)
        try await wait("both sessions reachable", within: limit) { await self.waitUntilReachable() }
        return (phone, watch)
    }
}
