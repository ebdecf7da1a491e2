import WatchPairCore
import WatchPairWire

/// The installation control operations (docs/ControlProtocol.md): `uninstall`, `install` and the watch
/// app's `setComplication`. ``ControlHandler`` dispatches to it.
struct InstallationOperations {
    let engine: PairEngine

    /// `uninstall` / `install`: records this app's installation state for the peer (``PairEngine/setInstalled(_:)``).
    func setInstalled(_ installed: Bool) async throws(WCFailure) -> JSONValue {
        try await engine.setInstalled(installed)
        return .object(["installed": .bool(installed)])
    }

    /// `setComplication`: enables or disables the watch app's complication (``PairEngine/setComplicationEnabled(_:)``).
    func setComplicationEnabled(_ request: ControlRequest) async throws(WCFailure) -> JSONValue {
        try await engine.setComplicationEnabled(request.enabled ?? false)
        return .object(["complicationEnabled": .bool(request.enabled ?? false)])
    }
}
