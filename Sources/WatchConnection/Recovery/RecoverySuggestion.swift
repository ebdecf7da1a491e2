/// Advice to show the user when the link is in trouble, with how prominently to show it.
///
/// `SuggestionRules` decides when each is made; each is made at most once per dedupe window (30 s).
public enum RecoverySuggestion: String, Sendable, Hashable, Codable, CaseIterable {
    /// Reachability is flapping: the devices are at the edge of range.
    case bringDevicesCloser
    /// The counterpart app is installed but not running (its device is on).
    case openCompanionApp
    /// The link cannot be set up at all: the counterpart's device is off or out of range (nothing
    /// listens for it), its app is not installed, or activation failed.
    case checkBluetoothEnabled
    /// The session is unhealthy.
    case restartWatch
    /// Recovery failed.
    case repairDevices

    /// How prominently to show a suggestion.
    public enum Severity: Int, Sendable, Hashable, Codable, Comparable, CaseIterable {
        /// A subtle hint.
        case minor
        /// A warning.
        case moderate
        /// A prominent alert.
        case major
        /// The user must act now.
        case critical

        /// Ordered by prominence.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The severity of this suggestion.
    public var severity: Severity {
        switch self {
        case .bringDevicesCloser, .openCompanionApp: .minor
        case .checkBluetoothEnabled: .moderate
        case .restartWatch: .major
        case .repairDevices: .critical
        }
    }

    /// A short title.
    public var title: String {
        switch self {
        case .bringDevicesCloser: "Bring your devices closer"
        case .openCompanionApp: "Open the app on your other device"
        case .checkBluetoothEnabled: "Check Bluetooth"
        case .restartWatch: "Restart your Apple Watch"
        case .repairDevices: "Re-pair your devices"
        }
    }

    /// A sentence saying what to do.
    public var message: String {
        switch self {
        case .bringDevicesCloser: "The connection keeps dropping. Keep your iPhone and Apple Watch close together."
        case .openCompanionApp: "The app is installed on your other device but not running. Open it there."
        case .checkBluetoothEnabled: "Your devices cannot connect. Make sure Bluetooth is on for both."
        case .restartWatch: "Syncing keeps failing. Restart your Apple Watch, then try again."
        case .repairDevices: "Recovery did not help. Unpair and pair your Apple Watch again."
        }
    }
}
