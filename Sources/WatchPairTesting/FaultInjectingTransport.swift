import Synchronization
import WatchPairCore

/// Wraps any ``Transport`` so that every connection it creates or accepts passes through a fault plan
/// the test controls.
///
/// Faults apply to bytes *written* by this side, one queued ``Fault`` per write call, in the order
/// queued, across all of this transport's connections (writes on one connection are applied in call
/// order). When the queue is empty writes pass unchanged. Reading, closing, presence and peer changes
/// pass straight through to the wrapped transport.
///
/// Bound: the fault queue holds what the test injects (it is the test's plan; nothing else adds to it).
/// ``appliedFaults`` buffers up to ``appliedFaultBufferLimit`` unread reports; later ones are dropped.
public final class FaultInjectingTransport: Transport {
    /// How many unread ``AppliedFault`` reports ``appliedFaults`` keeps; later reports are dropped.
    public static let appliedFaultBufferLimit = 10_000

    /// The wrapped transport.
    public let base: any Transport
    /// The clock ``Fault/delay(_:)`` waits on.
    let clock: any Clock<Duration>

    private struct State {
        var faults: [Fault] = []
        var writes = 0
    }

    private let state = Mutex(State())
    private let applied: AsyncStream<AppliedFault>
    private let appliedContinuation: AsyncStream<AppliedFault>.Continuation

    /// Wraps `base`; delays are measured on `clock` (a ``ManualClock`` in tests).
    public init(wrapping base: any Transport, clock: any Clock<Duration>) {
        self.base = base
        self.clock = clock
        (applied, appliedContinuation) = AsyncStream.makeStream(
            of: AppliedFault.self,
            bufferingPolicy: .bufferingOldest(Self.appliedFaultBufferLimit)
        )
    }

    /// Queues `fault` for the next write call that has no fault yet; ``Fault/none`` lets that write pass.
    public func inject(_ fault: Fault) {
        state.withLock { $0.faults.append(fault) }
    }

    /// Every fault applied since this transport was made, in the order applied.
    ///
    /// One stream for the transport's lifetime, so reports made before the test looks are not lost.
    /// Single consumer. A fault is reported once it has taken effect: a drop, corruption or disconnect
    /// after it happened, a delay when the hold begins (so the test can then advance the clock).
    /// Writes that pass (``Fault/none`` or no fault queued) are not reported.
    public var appliedFaults: AsyncStream<AppliedFault> { applied }

    /// How many write calls this transport's connections have started (faulted or not).
    public var writesObserved: Int {
        state.withLock { $0.writes }
    }

    /// How many injected faults no write has taken yet.
    public var pendingFaultCount: Int {
        state.withLock { $0.faults.count }
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

    /// Counts a write call and takes the fault for it.
    func takeFault() -> (writeIndex: Int, fault: Fault) {
        state.withLock { state in
            let index = state.writes
            state.writes += 1
            let fault = state.faults.isEmpty ? Fault.none : state.faults.removeFirst()
            return (index, fault)
        }
    }

    /// Reports a fault that took effect.
    func report(_ fault: Fault, writeIndex: Int) {
        appliedContinuation.yield(AppliedFault(fault: fault, writeIndex: writeIndex))
    }
}
