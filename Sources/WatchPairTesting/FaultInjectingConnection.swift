import Synchronization
import WatchPairCore
import WatchPairWire

/// A connection of a ``FaultInjectingTransport``: applies the transport's fault plan to each write call,
/// or to the frames in it.
///
/// Writes pass one at a time, first-come first-served, so a delayed write or frame holds back everything
/// written after it on this connection and bytes never reorder, as on a real socket.
final class FaultInjectingConnection: TransportConnection {
    let base: any TransportConnection
    let transport: FaultInjectingTransport
    private let gate = WriteGate()
    /// Finds the frames in what this side writes; changed only by the holder of `gate`.
    private let splitter = Mutex(FrameSplitter())

    init(base: any TransportConnection, transport: FaultInjectingTransport) {
        self.base = base
        self.transport = transport
    }

    var inbound: AsyncThrowingStream<[UInt8], any Error> { base.inbound }

    var description: String { "fault-injecting \(base.description)" }

    /// Applies a whole-write fault to `bytes`, or else the faults of the frames in it; the bytes around
    /// a faulted frame are written as they are, in order. Faults are taken when the write starts.
    func write(_ bytes: [UInt8]) async throws {
        try await gate.acquire()
        defer { gate.release() }
        let index = transport.countWrite()
        let side = transport.side
        let pieces = splitter.withLock { $0.split(bytes) }
        if let fault = transport.plan.takeWriteFault(from: side) {
            try await apply(fault, to: bytes, AppliedFault(fault: fault, writeIndex: index))
            return
        }
        let faults = transport.plan.takeFrameFaults(pieces.map(\.frame), from: side)
        var written = 0  // bytes of `bytes` before this offset are dealt with
        for (piece, fault) in zip(pieces, faults) {
            guard let fault, let frame = piece.frame else { continue }
            if written < piece.range.lowerBound { try await base.write(Array(bytes[written..<piece.range.lowerBound])) }
            written = piece.range.upperBound
            try await apply(fault, to: Array(bytes[piece.range]), AppliedFault(fault: fault, writeIndex: index, frame: frame.type, from: side))
        }
        if written == 0 {
            try await base.write(bytes)
        } else if written < bytes.count {
            try await base.write(Array(bytes[written...]))
        }
    }

    /// Writes at once when nothing is being written and no queued fault would touch `bytes`; false
    /// otherwise (then ``write(_:)`` applies the fault), so the fast path never bypasses the plan or a
    /// held write.
    func writeNow(_ bytes: [UInt8]) -> Bool {
        guard gate.tryAcquire() else { return false }
        defer { gate.release() }
        return splitter.withLock { splitter in
            var after = splitter
            let frames = after.split(bytes).map(\.frame)
            guard !transport.plan.wouldHit(frames, from: transport.side), base.writeNow(bytes) else { return false }
            splitter = after
            _ = transport.countWrite()
            return true
        }
    }

    func flush() async {
        await base.flush()
    }

    func close() async {
        await base.close()
    }

    /// Does what `fault` says with `bytes` (a whole write, or one frame of it), reporting `applied`.
    private func apply(_ fault: Fault, to bytes: [UInt8], _ applied: AppliedFault) async throws {
        let plan = transport.plan
        switch fault {
        case .none:
            try await base.write(bytes)
        case .drop:
            plan.report(applied)
        case .delay(let duration):
            plan.report(applied)
            try await Self.sleep(on: transport.clock, for: duration)
            try await base.write(bytes)
        case .disconnectMidFrame:
            try await base.write(Array(bytes.prefix(bytes.count / 2)))
            await base.close()
            plan.report(applied)
            throw TransportError(.connectionClosed, "write on \(description): disconnected mid-frame (injected)")
        case .corrupt(let byteOffset):
            var corrupted = bytes
            if !corrupted.isEmpty {
                corrupted[min(max(byteOffset, 0), corrupted.count - 1)] ^= 0xFF
            }
            try await base.write(corrupted)
            plan.report(applied)
        case .disconnect:
            await base.close()
            plan.report(applied)
            throw TransportError(.connectionClosed, "write on \(description): disconnected (injected)")
        }
    }

    private static func sleep(on clock: some Clock<Duration>, for duration: Duration) async throws {
        try await clock.sleep(for: duration)
    }
}
