import WatchPairQuirks

/// The ten quirks of real devices (docs/Quirks.md), as this session's app observes them.
///
/// Each is off until set, decided by `QuirkMachine` (seeded by its setting: the same seed and the same
/// calls give the same injections), timed on the session's clock, and recorded in `quirkInjections`.
/// Where each acts: `phantomReachability`, `asymmetricReachability`, `lateReply`, `replyAndError`,
/// `lostReply` on this session's messages and reachability; `stuckUserInfo` on its transfers;
/// `duplicateUserInfo`, `delayedDelivery` on what arrives at it; `contextReplay`, `installedFlapping`
/// at its activation.
extension FlakySession {
    /// Turns `quirk` on with `setting` (replacing an earlier setting: its draws and count restart).
    public func setQuirk(_ quirk: Quirk, _ setting: QuirkSetting = .always) {
        state.withLock { state in
            _ = state.quirks.event(.set(quirk, setting))
        }
        report(.stateChanged)
    }

    /// Turns `quirk` off, or every quirk (nil). What an injection holds back (a delayed arrival, a stuck
    /// transfer, a hidden reachability) stays until its own end.
    public func clearQuirk(_ quirk: Quirk? = nil) {
        state.withLock { _ = $0.quirks.event(.clear(quirk)) }
        report(.stateChanged)
    }

    /// Every quirk set, in catalog order, with its setting, opportunities and injections.
    public var quirkStatuses: [QuirkMachine.Status] { state.withLock { $0.quirks.statuses } }

    /// Every injection so far, in order (the quirk, its 1-based number, the delay it drew): which quirk
    /// hit a test, and when.
    public var quirkInjections: [QuirkMachine.Injection] { state.withLock { $0.quirkInjections } }

    /// The injections of `quirk` so far.
    public func injections(of quirk: Quirk) -> Int {
        state.withLock { $0.quirkInjections.count { $0.quirk == quirk } }
    }

    /// Late replies (`lateReply`) that arrived after their sender's 7012 and were dropped.
    public var droppedLateReplies: Int { state.withLock { $0.droppedLateReplies } }
}
