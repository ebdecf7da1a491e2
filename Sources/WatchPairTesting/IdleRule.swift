/// What the self-driving clock sees of the system at one moment: the clock, the in-memory network, and
/// the writes the fault transport holds on the clock.
package struct IdleObservation: Sendable, Hashable {
    /// `ManualClock.activity`'s generation: moves when a sleeper starts, resumes or is cancelled.
    package var clockActivity: UInt64
    /// `ManualClock.version`: what ``IdleRule/Action/advance(ifVersion:)`` must still find.
    package var clockVersion: UInt64
    /// `InMemoryNetwork.activity`'s generation: moves when bytes are written or read, a reader parks, a
    /// connection opens or closes, an endpoint starts or stops serving.
    package var networkActivity: UInt64
    /// `InMemoryNetwork.isQuiet`: every byte read and every reader parked.
    package var networkQuiet: Bool
    /// A write is held on the clock (a fault's delay), so a busy network may be waiting for time itself.
    package var writesHeld: Bool
    /// Some task sleeps on the clock: there is a deadline to advance to.
    package var hasSleepers: Bool

    package init(
        clockActivity: UInt64, clockVersion: UInt64, networkActivity: UInt64, networkQuiet: Bool, writesHeld: Bool,
        hasSleepers: Bool
    ) {
        self.clockActivity = clockActivity
        self.clockVersion = clockVersion
        self.networkActivity = networkActivity
        self.networkQuiet = networkQuiet
        self.writesHeld = writesHeld
        self.hasSleepers = hasSleepers
    }

    /// Whether anything moved between `self` and `later`.
    func changed(to later: IdleObservation) -> Bool {
        clockActivity != later.clockActivity || clockVersion != later.clockVersion || networkActivity != later.networkActivity
    }
}

/// When the self-driving clock may move time: the rule as a pure machine, one event per settle pass.
///
/// A pass is: observe, let every executor the pair uses run what it has queued (the drivers' barrier),
/// observe again. The clock advances to its next deadline only after ``quietPassesNeeded`` passes in a
/// row in which nothing moved (no sleeper started or ended, no byte was written or read, no connection
/// opened or closed) and the network was quiet (every written byte read, and every reader back in
/// `read()`, so a frame being handled, store writes included, still counts). A network that is busy
/// without moving is waited on (its reader will park, or read, and fire), except when a write is held
/// on the clock: then the busy reader may be the one waiting for that write, and time must move.
/// Without a sleeper there is nothing to advance to: the driver waits for the next activity.
package struct IdleRule: Sendable, Hashable {
    /// Passes in a row that must see nothing move before time does.
    package static let quietPassesNeeded = 3

    /// What the driver does after a pass.
    package enum Action: Sendable, Hashable {
        /// Run another pass at once (something moved, or not enough quiet passes yet).
        case lookAgain
        /// Advance to the next deadline if the clock's version is still this one.
        case advance(ifVersion: UInt64)
        /// Sleep until the clock or the network fires (nothing to advance to, or the network is busy).
        case waitForActivity
    }

    /// Quiet passes seen in a row.
    package private(set) var quietPasses = 0

    package init() {}

    /// The action after a pass that saw `before`, ran the barrier, then saw `after`.
    package mutating func pass(before: IdleObservation, after: IdleObservation) -> Action {
        if before.changed(to: after) {
            quietPasses = 0
            return .lookAgain
        }
        let quiet = (before.networkQuiet && after.networkQuiet) || after.writesHeld
        guard quiet else {
            quietPasses = 0
            return .waitForActivity
        }
        quietPasses += 1
        guard quietPasses >= Self.quietPassesNeeded else { return .lookAgain }
        quietPasses = 0
        return after.hasSleepers ? .advance(ifVersion: after.clockVersion) : .waitForActivity
    }
}
