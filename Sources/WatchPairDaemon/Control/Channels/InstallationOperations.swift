import WatchPairCore
import WatchPairHost
import WatchPairWire

/// The installation and lifecycle control operations (docs/ControlProtocol.md): `uninstall`, `install`,
/// `open` and the watch app's `setComplication`.
struct InstallationOperations {
    let channels: AppChannels

    func register(on router: inout ControlRouter) {
        router.register(UninstallOperation.self) { _, _ throws(WCFailure) in try await setInstalled(false) }
        router.register(InstallOperation.self) { _, _ throws(WCFailure) in try await setInstalled(true) }
        router.register(OpenOperation.self) { _, _ in await open() }
        router.register(SetComplicationOperation.self) { request, _ throws(WCFailure) in
            try await channels.setComplicationEnabled(request.enabled)
            return .object(["complicationEnabled": .bool(request.enabled)])
        }
    }

    /// `uninstall` / `install`: records this app's installation state for the peer (``AppChannels/setInstalled(_:)``).
    func setInstalled(_ installed: Bool) async throws(WCFailure) -> JSONValue {
        try await channels.setInstalled(installed)
        return .object(["installed": .bool(installed)])
    }

    /// `open`: the user opens the app (``AppChannels/open()``); `opened` says whether it moved from the
    /// background to the foreground.
    func open() async -> JSONValue {
        let opened = await channels.open()
        return .object(["launch": .string(await channels.launch.rawValue), "opened": .bool(opened)])
    }
}

/// `uninstall`: the peer's content to this app fails with 7006/7018 until `install`.
struct UninstallOperation: FieldlessControlOperation {
    static let name = "uninstall"
}

/// `install`: installs this app again after `uninstall`.
struct InstallOperation: FieldlessControlOperation {
    static let name = "install"
}

/// `open`: the user opens the app; a background launch moves to the foreground.
struct OpenOperation: FieldlessControlOperation {
    static let name = "open"
}

/// `setComplication`: enables or disables the watch app's complication (the phone's `isComplicationEnabled`).
struct SetComplicationOperation: ControlOperation {
    static let name = "setComplication"

    var enabled: Bool

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        enabled = try Self.required("enabled", from: &fields) { fields throws(WCFailure) in try fields.bool() }
    }
}
