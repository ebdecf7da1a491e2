import WatchPairHost
import WatchPairQuirks

/// The quirks of real devices on this session (docs/Quirks.md), for the test kit
/// (`WCSessionPair.setQuirk(_:_:on:)`): what this app observes of its counterpart misbehaves as a real
/// device's would, through the session's own engine.
extension WCSession {
    /// Turns `quirk` on with `setting` now (when activated) and at every later activation.
    package func setQuirk(_ quirk: Quirk, _ setting: QuirkSetting) async {
        state.withLock { $0.quirks[quirk] = setting }
        await activeRuntime?.channels.setQuirk(quirk, setting)
    }

    /// Turns `quirk` off, or every quirk (nil), now and for later activations.
    package func clearQuirk(_ quirk: Quirk?) async {
        state.withLock { state in
            if let quirk { state.quirks[quirk] = nil } else { state.quirks.removeAll() }
        }
        await activeRuntime?.channels.clearQuirk(quirk)
    }

    /// The quirks set on the running engine, with their counts; empty when not activated.
    package func quirkStatuses() async -> [QuirkMachine.Status] {
        await activeRuntime?.channels.quirkStatuses() ?? []
    }
}
