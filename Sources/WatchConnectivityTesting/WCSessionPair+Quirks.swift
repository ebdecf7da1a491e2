import WatchConnectivity
import WatchPairQuirks
import WatchPairWire

/// The quirks of real devices in the in-memory kit (docs/Quirks.md): a quirk set on a side is what that
/// side's app observes, exactly as `wcctl --side <side> quirk set` does to a daemon. Each injection is a
/// `quirkInjected` event of that side's engine; time (held replies, delays) follows the pair's clock.
extension WCSessionPair {
    /// Turns `quirk` on for `role`'s session, with `setting` (every opportunity by default): at once
    /// when the session is activated, and at each activation after (so `contextReplay` and
    /// `installedFlapping`, whose opportunity is the activation, may be set before `activate()`).
    public func setQuirk(_ quirk: Quirk, _ setting: QuirkSetting = .always, on role: Role) async {
        await session(role).setQuirk(quirk, setting)
    }

    /// Turns `quirk` off for `role`'s session, or every quirk (nil); what it held back is released.
    public func clearQuirk(_ quirk: Quirk? = nil, on role: Role) async {
        await session(role).clearQuirk(quirk)
    }

    /// The quirks set on `role`'s running engine, with their opportunities and injections.
    public func quirkStatuses(on role: Role) async -> [QuirkMachine.Status] {
        await session(role).quirkStatuses()
    }
}
