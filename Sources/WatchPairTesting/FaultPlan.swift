import Synchronization
import WatchPairWire

/// The faults a test injected and not yet applied, shared by the ``FaultInjectingTransport``s of one
/// link (one per side, ``FaultInjectingTransport/linked(phone:watch:clock:)``), and the stream that
/// reports the faults applied.
///
/// A write call is first offered to the ``FaultTarget/write`` faults: the first one queued for the
/// writer's side takes the whole call. Otherwise each whole frame in it is offered to the other faults:
/// the first one queued whose target matches the frame and whose side is the writer's (or any) takes it.
/// A fault with a count takes that many writes or frames, then leaves the plan.
///
/// Bound: the plan holds what the test injects (nothing else adds to it); the report stream keeps
/// ``FaultInjectingTransport/appliedFaultBufferLimit`` unread reports and drops later ones.
final class FaultPlan: Sendable {
    /// One injected fault and what is left of it.
    struct Entry: Sendable {
        var fault: Fault
        var target: FaultTarget
        /// The side whose writes it hits; nil: either.
        var side: Role?
        /// How many more writes or frames it takes.
        var remaining: Int

        /// Whether it takes a whole write call by `writer`.
        func takesWrite(from writer: Role?) -> Bool {
            target == .write && (side == nil || side == writer)
        }

        /// Whether it takes `frame`, written by `writer`.
        func takes(_ frame: Frame, from writer: Role?) -> Bool {
            target.matches(frame) && (side == nil || side == writer)
        }
    }

    private let entries = Mutex<[Entry]>([])
    let applied: AsyncStream<AppliedFault>
    private let appliedContinuation: AsyncStream<AppliedFault>.Continuation

    init() {
        (applied, appliedContinuation) = AsyncStream.makeStream(
            of: AppliedFault.self,
            bufferingPolicy: .bufferingOldest(FaultInjectingTransport.appliedFaultBufferLimit)
        )
    }

    /// Queues `fault` for the next `count` writes or frames `target` names, from `side` (nil: either).
    func inject(_ fault: Fault, on target: FaultTarget, from side: Role?, count: Int) {
        guard count > 0 else { return }
        entries.withLock { $0.append(Entry(fault: fault, target: target, side: side, remaining: count)) }
    }

    /// How many writes or frames the queued faults will still take.
    var pendingCount: Int {
        entries.withLock { $0.reduce(0) { $0 + $1.remaining } }
    }

    /// Takes the fault for a write call by `writer`: the first ``FaultTarget/write`` one queued for it.
    func takeWriteFault(from writer: Role?) -> Fault? {
        entries.withLock { Self.take(from: &$0) { $0.takesWrite(from: writer) } }
    }

    /// Takes the fault, if any, for each of `frames` (in order) written by `writer`.
    func takeFrameFaults(_ frames: [Frame?], from writer: Role?) -> [Fault?] {
        entries.withLock { entries in
            frames.map { frame in
                guard let frame else { return nil }
                return Self.take(from: &entries) { $0.takes(frame, from: writer) }
            }
        }
    }

    /// Whether a write by `writer` holding `frames` would meet a fault (taking none).
    func wouldHit(_ frames: [Frame?], from writer: Role?) -> Bool {
        entries.withLock { entries in
            entries.contains { entry in
                entry.takesWrite(from: writer) || frames.contains { $0.map { entry.takes($0, from: writer) } ?? false }
            }
        }
    }

    /// Reports a fault that took effect.
    func report(_ applied: AppliedFault) {
        appliedContinuation.yield(applied)
    }

    private static func take(from entries: inout [Entry], where matches: (Entry) -> Bool) -> Fault? {
        guard let index = entries.firstIndex(where: matches) else { return nil }
        let fault = entries[index].fault
        entries[index].remaining -= 1
        if entries[index].remaining == 0 { entries.remove(at: index) }
        return fault
    }
}
