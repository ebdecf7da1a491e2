import WatchPairWire

extension PairEngine {
    /// The peer app's ``WatchState`` as last probed: `isWatchAppInstalled` / `isCompanionAppInstalled`.
    /// `installedFlapping` may show it not installed for a while; refusals follow the real state.
    public var peerWatchState: WatchState {
        quirks.isEmpty || !quirks.installationHidden ? peerPresence.watchState : WatchState(installed: false)
    }

    /// This app's own installation record (`wcctl uninstall` / `install`).
    public var installation: AppInstallation { installations.own }

    /// Installs or uninstalls this app (`wcctl install` / `uninstall`): records it durably where the
    /// peer reads it, so the peer's content to this app fails at once with 7006/7018 while uninstalled,
    /// even when this app is not running. An uninstalled app makes no links. Content either side had
    /// accepted stays queued and is delivered once the app is installed again (docs/Lifecycle.md).
    /// Throws 7001 when the record cannot be written; the previous state then stands.
    public func setInstalled(_ installed: Bool) async throws(WCFailure) {
        try await installations.setInstalled(installed, self)
    }

    /// Enables or disables the watch app's complication (`wcctl --side watch complication enable` /
    /// `disable`): recorded like the installation, so the phone's `isComplicationEnabled` follows it while
    /// the watch app is not running, and `sessionWatchStateDidChange` fires there. Only on the watch
    /// (7008 on the phone); 7001 when the record cannot be written.
    public func setComplicationEnabled(_ enabled: Bool) async throws(WCFailure) {
        try await installations.setComplicationEnabled(enabled, self)
    }
}
