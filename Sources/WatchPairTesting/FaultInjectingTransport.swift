import Synchronization
import WatchPairCore
import WatchPairWire

/// Wraps any ``Transport`` so that every connection it creates or accepts passes through a fault plan
/// the test controls.
///
/// Faults apply to bytes *written* by this side. ``inject(_:)`` aims a ``Fault`` at the next write call,
/// whatever it holds, in the order queued, across all of this transport's connections (writes on one
/// connection are applied in call order). ``inject(_:on:from:count:)`` aims it at what it means: the next
/// reply, message, userInfo, context or file frame, the handshake (``FaultTarget``), written by one side
/// or either, the next `count` of them; every other frame passes untouched and in order. When nothing
/// is queued, writes pass unchanged. Reading, closing, presence and peer changes pass straight through
/// to the wrapped transport.
///
/// Two transports made by ``linked(phone:watch:clock:)`` share one plan: a fault injected into either
/// may aim at the writes of both sides (`from:`), and both report to the same ``appliedFaults``.
///
/// Bound: the fault queue holds what the test injects (it is the test's plan; nothing else adds to it).
/// ``appliedFaults`` buffers up to ``appliedFaultBufferLimit`` unread reports; later ones are dropped.
/// Each connection buffers at most one partial frame to find frames in (``FaultTarget``).
public final class FaultInjectingTransport: Transport {
    /// How many unread ``AppliedFault`` reports ``appliedFaults`` keeps; later reports are dropped.
    public static let appliedFaultBufferLimit = 10_000

    /// The wrapped transport.
    public let base: any Transport
    /// The side whose writes pass through this transport (nil when not told): faults aimed `from:` a
    /// side hit only the writes of that side's transport.
    public let side: Role?
    /// The clock ``Fault/delay(_:)`` waits on.
    let clock: any Clock<Duration>
    /// The faults queued, shared with a linked transport.
    let plan: FaultPlan

    /// How many write calls this transport's connections have started.
    private let writes = Mutex(0)

    /// Wraps `base`; delays are measured on `clock` (a ``ManualClock`` in tests).
    ///
    /// - Parameter side: The side writing through this transport, for faults aimed `from:` a side (nil:
    ///   they never hit this transport's writes; faults for either side still do).
    public convenience init(wrapping base: any Transport, clock: any Clock<Duration>, side: Role? = nil) {
        self.init(wrapping: base, clock: clock, side: side, plan: FaultPlan())
    }

    init(wrapping base: any Transport, clock: any Clock<Duration>, side: Role?, plan: FaultPlan) {
        self.base = base
        self.clock = clock
        self.side = side
        self.plan = plan
    }

    /// A phone's and a watch's transport sharing one fault plan and one ``appliedFaults`` stream, for two
    /// engines linked in one process: inject into either, aiming `from:` the side whose writes to hit.
    /// ``inject(_:)`` on one of them still aims at that one's next write call.
    public static func linked(
        phone: any Transport, watch: any Transport, clock: any Clock<Duration>
    ) -> (phone: FaultInjectingTransport, watch: FaultInjectingTransport) {
        let plan = FaultPlan()
        return (
            FaultInjectingTransport(wrapping: phone, clock: clock, side: .phone, plan: plan),
            FaultInjectingTransport(wrapping: watch, clock: clock, side: .watch, plan: plan)
        )
    }

    /// Queues `fault` for the next write call of this transport that has no fault yet; ``Fault/none``
    /// lets that write pass. The same as `inject(fault, on: .write, from: side)`.
    public func inject(_ fault: Fault) {
        plan.inject(fault, on: .write, from: side, count: 1)
    }

    /// Queues `fault` for the next `count` writes or frames that `target` names, written by `side` (nil:
    /// by either side of a linked pair, or by this transport alone).
    ///
    /// A write call is first offered to the ``FaultTarget/write`` faults: the first one queued for its
    /// side takes it whole. Otherwise each whole frame in it is offered to the other faults: the first one
    /// queued that matches it takes it, and the frames around it pass, in order. So `inject(.drop, on:
    /// .reply, from: .watch)` loses exactly the watch's next answer to a message, whatever the watch
    /// writes before it. ``Fault/none`` aimed at frames lets that many pass before a later fault: queue
    /// `inject(.none, on: .userInfo, count: 2)` then `inject(.drop, on: .userInfo)` to lose the third.
    /// A `count` below 1 queues nothing.
    public func inject(_ fault: Fault, on target: FaultTarget, from side: Role? = nil, count: Int = 1) {
        plan.inject(fault, on: target, from: side, count: count)
    }

    /// Every fault applied since this transport (or its linked pair) was made, in the order applied.
    ///
    /// One stream for the plan's lifetime, so reports made before the test looks are not lost.
    /// Single consumer (one for both transports of a linked pair). A fault is reported once it has taken
    /// effect: a drop, corruption or disconnect after it happened, a delay when the hold begins (so the
    /// test can then advance the clock). Writes and frames that pass (``Fault/none`` or no fault queued)
    /// are not reported.
    public var appliedFaults: AsyncStream<AppliedFault> { plan.applied }

    /// How many write calls this transport's connections have started (faulted or not).
    public var writesObserved: Int {
        writes.withLock { $0 }
    }

    /// How many writes or frames the injected faults will still take (all sides of a linked pair).
    public var pendingFaultCount: Int {
        plan.pendingCount
    }

    /// Serves through the wrapped transport, wrapping each accepted connection.
    public func serve(_ handler: @escaping @Sendable (any TransportConnection) async -> Void) async throws {
        try await base.serve { [self] connection in
            await handler(FaultInjectingConnection(base: connection, transport: self))
        }
    }

    /// Connects through the wrapped transport and wraps the connection.
    public func connect() async throws -> any TransportConnection {
        FaultInjectingConnection(base: try await base.connect(), transport: self)
    }

    /// The wrapped transport's answer.
    public func peerPresence() async -> PeerPresence {
        await base.peerPresence()
    }

    /// The wrapped transport's stream.
    public func peerChanges() -> AsyncStream<Void> {
        base.peerChanges()
    }

    /// Announces through the wrapped transport.
    public func announceContentPending(_ pending: Bool) async {
        await base.announceContentPending(pending)
    }

    /// Passed to the wrapped transport.
    public func publishInstallation(_ installation: AppInstallation) async throws {
        try await base.publishInstallation(installation)
    }

    /// The wrapped transport's.
    public func installation() async -> AppInstallation {
        await base.installation()
    }

    /// Counts a write call; returns its 0-based index.
    func countWrite() -> Int {
        writes.withLock { count in
            defer { count += 1 }
            return count
        }
    }
}
