/// What the session says of the counterpart when a request fails: enough for `SuggestionRules` to tell
/// "device off" (nothing listens: the link cannot be set up) from "installed, not running" (docs/Lifecycle.md).
public struct CounterpartState: Sendable, Hashable {
    /// `isCounterpartAppInstalled`: stays true while the counterpart's device is off.
    public var appInstalled: Bool
    /// `isCounterpartDeviceOn`: false when nothing listens for the counterpart (device off or out of
    /// range); nil when the session cannot tell (Apple's `WCSession`).
    public var deviceOn: Bool?

    /// A counterpart as the session reports it.
    public init(appInstalled: Bool, deviceOn: Bool?) {
        self.appInstalled = appInstalled
        self.deviceOn = deviceOn
    }
}
