/// Advances a ``ManualClock`` to its next deadline whenever the system on it is idle (``IdleRule``),
/// until the task running ``run()`` is cancelled.
///
/// Idle is judged from the clock, the in-memory network, the writes a fault holds on the clock
/// (``HoldingClock``), and a barrier the owner supplies: an async call that returns once every executor
/// the system runs on has run what was queued on it before the call (for WCSession: the engine's thread
/// and each delegate queue). Between passes the driver only waits on those (no sleeping, no polling):
/// while something moves it passes again at once, and otherwise it waits for the clock or the network
/// to fire.
package struct IdleClockDriver: Sendable {
    package let clock: ManualClock
    package let network: InMemoryNetwork
    /// The fault transport's view of the clock, if faults are injected on this network.
    package let holding: HoldingClock?
    /// Returns once the system's executors ran what was queued on them before the call.
    package let barrier: @Sendable () async -> Void
    /// Called with each decision (tests of the driver watch them).
    package let onDecision: (@Sendable (IdleRule.Action) -> Void)?

    package init(
        clock: ManualClock, network: InMemoryNetwork, holding: HoldingClock? = nil,
        barrier: @escaping @Sendable () async -> Void, onDecision: (@Sendable (IdleRule.Action) -> Void)? = nil
    ) {
        self.clock = clock
        self.network = network
        self.holding = holding
        self.barrier = barrier
        self.onDecision = onDecision
    }

    /// What the rule sees now.
    package func observe() -> IdleObservation {
        // The activity generations first: a change after them shows up in the next observation.
        let clockActivity = clock.activity.generation
        let networkActivity = network.activity.generation
        return IdleObservation(
            clockActivity: clockActivity, clockVersion: clock.version, networkActivity: networkActivity,
            networkQuiet: network.isQuiet, writesHeld: holding?.isHolding ?? false, hasSleepers: clock.nextDeadline != nil)
    }

    /// Drives the clock until cancelled.
    package func run() async {
        var rule = IdleRule()
        while !Task.isCancelled {
            let before = observe()
            await barrier()
            let after = observe()
            let action = rule.pass(before: before, after: after)
            onDecision?(action)
            switch action {
            case .lookAgain:
                continue
            case .advance(let version):
                _ = clock.advanceToNextDeadline(ifVersion: version)
            case .waitForActivity:
                await waitForActivity(after: after)
            }
        }
    }

    /// Returns once the clock or the network fired after `seen`, or when cancelled.
    private func waitForActivity(after seen: IdleObservation) async {
        let (clock, network) = (clock, network)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await clock.activity.wait(after: seen.clockActivity) }
            group.addTask { await network.activity.wait(after: seen.networkActivity) }
            await group.next()
            group.cancelAll()
        }
    }
}
