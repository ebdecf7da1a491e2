import WatchPairCore
import WatchPairQuirks

/// The quirks of real devices on this app's side (docs/Quirks.md): `wcctl quirk`, the test kit.
extension AppChannels {
    /// Turns `quirk` on with `setting`, replacing an earlier setting.
    public func setQuirk(_ quirk: Quirk, _ setting: QuirkSetting) async {
        await engine.setQuirk(quirk, setting)
    }

    /// Turns `quirk` off, or every quirk (nil); what it held back is released at once.
    public func clearQuirk(_ quirk: Quirk?) async {
        await engine.clearQuirk(quirk)
    }

    /// Every quirk set, in catalog order, with its opportunities and injections.
    public func quirkStatuses() async -> [QuirkMachine.Status] {
        await engine.quirkStatuses
    }
}
