/// The installation record an app keeps for its peer to read (docs/Lifecycle.md): what
/// `wcctl uninstall` / `install` and `wcctl complication enable` / `disable` set. It lives outside the
/// app's process, in its state directory, so the peer reads it while the app is not running, and it
/// survives reboots.
public struct AppInstallation: Sendable, Hashable, Codable {
    /// The app is installed. False after `wcctl uninstall`, until `wcctl install`.
    public var installed: Bool
    /// The watch app's complication is on the active watch face (`isComplicationEnabled` on the phone).
    /// Set on the watch only; false by default.
    public var complicationEnabled: Bool

    /// Creates a record; an app with no record is installed, without a complication.
    public init(installed: Bool = true, complicationEnabled: Bool = false) {
        self.installed = installed
        self.complicationEnabled = complicationEnabled
    }

    private enum CodingKeys: String, CodingKey { case installed, complicationEnabled }

    /// Decodes a record; a missing key keeps its default, so older records stay readable.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        installed = try container.decodeIfPresent(Bool.self, forKey: .installed) ?? true
        complicationEnabled = try container.decodeIfPresent(Bool.self, forKey: .complicationEnabled) ?? false
    }
}

/// The state of the peer app's socket unit file as systemd reports it (`systemctl is-enabled`,
/// `UnitFileState`), read from the unit's links. Enablement only says whether the socket listens from
/// boot: a unit started without being enabled is an installed app, because its socket launches the app.
/// The app is not installed only when the unit is masked or has no unit file.
public enum UnitFileState: String, Sendable, Hashable, Codable {
    /// A `<target>.wants/` link to the unit exists (`systemctl enable`): installed, listens from boot.
    case enabled
    /// The unit file exists and nothing links to it (`systemctl disable`, or never enabled): installed;
    /// it listens only once started (disabled and stopped is "device off").
    case disabled
    /// The unit is linked to `/dev/null` (`systemctl mask`): it cannot be started at all; not installed.
    case masked
    /// No unit file of that name exists, while this side's own unit file does (so units are how apps are
    /// installed here): not installed. `systemctl is-enabled` says `not-found`.
    case notFound = "not-found"
}
