import WatchPairCore
import WatchPairWire

/// The installation and lifecycle control operations (docs/ControlProtocol.md): `uninstall`, `install`,
/// `open` and the watch app's `setComplication`. ``ControlHandler`` dispatches to it.
struct InstallationOperations {
    let engine: PairEngine

    /// `uninstall` / `install`: records this app's installation state for the peer (``PairEngine/setInstalled(_:)``).
    func setInstalled(_ installed: Bool) async throws(WCFailure) -> JSONValue {
        try await engine.setInstalled(installed)
        return .object(["installed": .bool(installed)])
    }

    /// `open`: the user opens the app (``PairEngine/open()``); `opened` says whether it moved from the
    /// background to the foreground.
    func open() async -> JSONValue {
        let opened = await engine.open()
        return .object(["launch": .string(await engine.launch.rawValue), "opened": .bool(opened)])
    }

    /// `setComplication`: enables or disables the watch app's complication (``PairEngine/setComplicationEnabled(_:)``).
    func setComplicationEnabled(_ request: ControlRequest) async throws(WCFailure) -> JSONValue {
        try await engine.setComplicationEnabled(request.enabled ?? false)
        return .object(["complicationEnabled": .bool(request.enabled ?? false)])
    }
}
