import Synchronization
import WatchConnectivity
import WatchPairCore
import WatchPairTesting

/// How a ``WCSessionPair`` bounds every wait of the kit (its recorders', its replies',
/// ``WCSessionPair/wait(_:within:_:)``), and, with a self-driving clock, drives the clock while one runs.
///
/// The bound is on the real clock, a safety net: were it a deadline on the pair's clock, the driver
/// would jump to it whenever the pair looked idle while unseen work (a store opening) was still going.
///
/// Time moves only while the test waits through the kit: between its waits the test's own code runs,
/// and the clock must not move under it (it may be about to inject a fault or answer a message); the
/// kit cannot see that code, so no driver runs in the background. While any wait runs, exactly one
/// ``IdleClockDriver`` drives the clock: the first wait to start takes the token, and when it ends
/// another running wait takes it over.
final class PairWaits: SessionWaits {
    /// The sessions whose queues the driver drains, held weakly (each session holds this object).
    let sessions = SessionList()
    private let driver: IdleClockDriver?
    /// Whether a wait's driver is driving.
    private let driving = Mutex(false)
    /// Fires when the driving wait ends, so another running wait takes over.
    private let released = AsyncSignal()

    /// Plain waits on the real clock, for recorders and sessions of no pair.
    static let unpaired = PairWaits()

    /// Plain waits on the real clock (sockets, or a manual clock the test steps).
    init() {
        driver = nil
    }

    /// Waits that drive `clock` while they run (`holding`: the fault transport's view of it).
    init(driving clock: ManualClock, network: InMemoryNetwork, holding: HoldingClock) {
        let sessions = sessions
        driver = IdleClockDriver(clock: clock, network: network, holding: holding) {
            for session in sessions.all { await session.drainQueues() }
            await Task.yield()
        }
    }

    func wait<Value: Sendable>(
        _ what: String, within limit: Duration, _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        guard let driver else { return try await withTimeout(limit, what, operation) }
        return try await withTimeout(limit, what) {
            try await withThrowingTaskGroup(of: Outcome<Value>.self) { group in
                defer { group.cancelAll() }
                group.addTask { .value(try await operation()) }
                group.addTask {
                    await self.drive(driver)
                    return .driverStopped
                }
                // Only the operation returns a value; the driver stops when cancelled.
                while let outcome = try await group.next() {
                    if case .value(let value) = outcome { return value }
                }
                throw CancellationError()
            }
        }
    }

    /// How a child of a wait ended.
    private enum Outcome<Value: Sendable>: Sendable {
        case value(Value)
        case driverStopped
    }

    /// Drives the clock while this wait runs and no other wait's driver does; returns when cancelled.
    private func drive(_ driver: IdleClockDriver) async {
        while !Task.isCancelled {
            let seen = released.generation
            let acquired = driving.withLock { driving in
                defer { driving = true }
                return !driving
            }
            if acquired {
                await driver.run()
                driving.withLock { $0 = false }
                released.fire()
                return
            }
            await released.wait(after: seen)
        }
    }
}

/// Runs `operation`, bounded by `limit` as `waits` (a pair's) bounds it, or on the real clock without a pair.
func bounded<Value: Sendable>(
    by waits: (any SessionWaits)?, _ what: String, within limit: Duration, _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await (waits ?? PairWaits.unpaired).wait(what, within: limit, operation)
}

/// The sessions of a pair, held weakly.
final class SessionList: Sendable {
    private struct Entry {
        weak var session: WCSession?
    }

    private let entries = Mutex<[Entry]>([])

    func add(_ session: WCSession) {
        entries.withLock { $0.append(Entry(session: session)) }
    }

    var all: [WCSession] {
        entries.withLock { $0.compactMap(\.session) }
    }
}
