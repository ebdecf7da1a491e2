import WatchPairWire

/// Installation state's executor ("app not installed", docs/Lifecycle.md): this app's installation record, which
/// it publishes for the peer, and the peer's ``WatchState``, followed by a ``WatchStateMachine``.
///
/// Owned by one ``PairEngine`` and touched only on its actor: every method that reads the engine takes
/// it as its `isolated` parameter, so the record and the links it governs stay in one isolation domain.
final class InstallationTracker {
    /// Follows whether the peer app is installed (``update(_:)``).
    private var watchStates = WatchStateMachine()
    /// This app's installation record, read at `run()` (``load(_:)``) and set by ``setInstalled(_:_:)``.
    private(set) var own = AppInstallation()

    /// Reads this app's record as the transport keeps it (at activation).
    func load(_ engine: isolated PairEngine) async {
        own = await engine.transport.installation()
    }

    /// See ``PairEngine/setInstalled(_:)``.
    func setInstalled(_ installed: Bool, _ engine: isolated PairEngine) async throws(WCFailure) {
        var record = own
        record.installed = installed
        guard try await publish(record, engine) else { return }
        engine.emit(.installationChanged, "\(engine.role.daemonName) \(installed ? "installed" : "uninstalled")")
        if !installed {
            // Links up now would carry content to or from an app that no longer exists.
            for link in engine.links.values { await link.close(.shutdown) }
        }
        engine.contentSignal.fire()
        engine.stateSignal.fire()
    }

    /// See ``PairEngine/setComplicationEnabled(_:)``.
    func setComplicationEnabled(_ enabled: Bool, _ engine: isolated PairEngine) async throws(WCFailure) {
        guard engine.role == .watch else {
            throw WCFailure(.invalidParameter, "complications belong to the watch app: use --side watch")
        }
        var record = own
        record.complicationEnabled = enabled
        guard try await publish(record, engine) else { return }
        engine.emit(.installationChanged, "complication \(enabled ? "enabled" : "disabled")")
        engine.stateSignal.fire()
    }

    /// Writes `record` when it differs from this app's; false when nothing changed.
    private func publish(_ record: AppInstallation, _ engine: isolated PairEngine) async throws(WCFailure) -> Bool {
        guard record != own else { return false }
        do {
            try await engine.transport.publishInstallation(record)
        } catch {
            throw WCFailure(.genericError, "the installation record could not be written: \(error)")
        }
        own = record
        return true
    }

    /// Fails content for a peer app that is not installed, at once (docs/Lifecycle.md): 7006 on the phone,
    /// 7018 on the watch, with a `contentRefused` event; nothing is queued. Called after the local
    /// checks (7008, 7009, 7010), like reachability.
    func refuseIfPeerNotInstalled(_ what: String, channel: DiagnosticEvent.Channel, _ engine: isolated PairEngine) throws(WCFailure) {
        guard let failure = engine.peerPresence.watchState.refusal(role: engine.role) else { return }
        engine.emit(.contentRefused, "\(what) refused: \(failure.message)", channel: channel, errorCode: failure.code)
        throw failure
    }

    /// Feeds the latest probe to the ``WatchStateMachine``: a change is a `watchStateChanged` event and
    /// a state change (`sessionWatchStateDidChange`); launches and stops of the peer are not.
    func update(_ engine: isolated PairEngine) {
        guard case .changed(let from, let to) = watchStates.event(probed: engine.peerWatchState) else { return }
        engine.emit(.watchStateChanged, "\(engine.role.peer.daemonName) app \(Self.describe(to)) (was \(Self.describe(from)))")
        engine.contentSignal.fire()
        engine.stateSignal.fire()
    }

    private static func describe(_ state: WatchState) -> String {
        guard state.installed else { return "not installed" }
        return state.complicationEnabled ? "installed, complication enabled" : "installed"
    }
}
