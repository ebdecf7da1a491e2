import Synchronization

/// A ``ManualClock`` seen through a counter of the tasks sleeping through this view: give it to the
/// fault-injecting transport, and the self-driving clock knows when a write is held by a fault's delay.
///
/// A reader blocked behind a held write keeps the network busy; without this count the self-driving
/// clock would wait for that reader forever, while only time can free it.
package final class HoldingClock: Clock, Sendable {
    package typealias Instant = ManualClock.Instant

    /// The clock slept on.
    package let base: ManualClock
    private let sleeping = Mutex(0)

    package init(_ base: ManualClock) {
        self.base = base
    }

    package var now: Instant { base.now }
    package var minimumResolution: Duration { base.minimumResolution }

    /// Whether a task sleeps through this view now.
    package var isHolding: Bool { sleeping.withLock { $0 > 0 } }

    /// Sleeps on ``base``, counted while it sleeps.
    package func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        sleeping.withLock { $0 += 1 }
        defer { sleeping.withLock { $0 -= 1 } }
        try await base.sleep(until: deadline, tolerance: tolerance)
    }
}
