import WatchPairWire

extension PairEngine {
    /// The peer app's ``WatchState`` as last probed: `isWatchAppInstalled` / `isCompanionAppInstalled`.
    public var peerWatchState: WatchState { peerPresence.watchState }

    /// This app's own installation record (`wcctl uninstall` / `install`).
    public var installation: AppInstallation { ownInstallation }

    /// Installs or uninstalls this app (`wcctl install` / `uninstall`): records it durably where the
    /// peer reads it, so the peer's content to this app fails at once with 7006/7018 while uninstalled,
    /// even when this app is not running. An uninstalled app makes no links. Content either side had
    /// accepted stays queued and is delivered once the app is installed again (docs/Lifecycle.md).
    /// Throws 7001 when the record cannot be written; the previous state then stands.
    public func setInstalled(_ installed: Bool) async throws(WCFailure) {
        var record = ownInstallation
        record.installed = installed
        guard try await publish(record) else { return }
        emit(.installationChanged, "\(role.daemonName) \(installed ? "installed" : "uninstalled")")
        if !installed {
            // Links up now would carry content to or from an app that no longer exists.
            for link in links.values { await link.close(.shutdown) }
        }
        contentSignal.fire()
        stateSignal.fire()
    }

    /// Enables or disables the watch app's complication (`wcctl --side watch complication enable` /
    /// `disable`): recorded like the installation, so the phone's `isComplicationEnabled` follows it while
    /// the watch app is not running, and `sessionWatchStateDidChange` fires there. Only on the watch
    /// (7008 on the phone); 7001 when the record cannot be written.
    public func setComplicationEnabled(_ enabled: Bool) async throws(WCFailure) {
        guard role == .watch else {
            throw WCFailure(.invalidParameter, "complications belong to the watch app: use --side watch")
        }
        var record = ownInstallation
        record.complicationEnabled = enabled
        guard try await publish(record) else { return }
        emit(.installationChanged, "complication \(enabled ? "enabled" : "disabled")")
        stateSignal.fire()
    }

    /// Writes `record` when it differs from this app's; false when nothing changed.
    private func publish(_ record: AppInstallation) async throws(WCFailure) -> Bool {
        guard record != ownInstallation else { return false }
        do {
            try await transport.publishInstallation(record)
        } catch {
            throw WCFailure(.genericError, "the installation record could not be written: \(error)")
        }
        ownInstallation = record
        return true
    }

    /// Fails content for a peer app that is not installed, at once (DESIGN §3): 7006 on the phone,
    /// 7018 on the watch, with a `contentRefused` event; nothing is queued. Called after the local
    /// checks (7008, 7009, 7010), like reachability.
    func refuseIfPeerNotInstalled(_ what: String, channel: DiagnosticEvent.Channel) throws(WCFailure) {
        guard let failure = peerWatchState.refusal(role: role) else { return }
        emit(.contentRefused, "\(what) refused: \(failure.message)", channel: channel, errorCode: failure.code)
        throw failure
    }

    /// Feeds the latest probe to the ``WatchStateMachine``: a change is a `watchStateChanged` event and
    /// a state change (`sessionWatchStateDidChange`); launches and stops of the peer are not.
    func updateWatchState() {
        guard case .changed(let from, let to) = watchStates.event(probed: peerWatchState) else { return }
        emit(.watchStateChanged, "\(role.peer.daemonName) app \(Self.describe(to)) (was \(Self.describe(from)))")
        contentSignal.fire()
        stateSignal.fire()
    }

    private static func describe(_ state: WatchState) -> String {
        guard state.installed else { return "not installed" }
        return state.complicationEnabled ? "installed, complication enabled" : "installed"
    }
}
