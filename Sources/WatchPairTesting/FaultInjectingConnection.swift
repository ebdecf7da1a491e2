import Synchronization
import WatchPairCore

/// A connection of a ``FaultInjectingTransport``: applies the transport's fault plan to each write.
///
/// Writes pass one at a time, first-come first-served, so a delayed write holds back later ones and
/// bytes never reorder, as on a real socket.
final class FaultInjectingConnection: TransportConnection {
    let base: any TransportConnection
    let transport: FaultInjectingTransport
    private let gate = WriteGate()

    init(base: any TransportConnection, transport: FaultInjectingTransport) {
        self.base = base
        self.transport = transport
    }

    var inbound: AsyncThrowingStream<[UInt8], any Error> { base.inbound }

    var description: String { "fault-injecting \(base.description)" }

    func write(_ bytes: [UInt8]) async throws {
        try await gate.acquire()
        defer { gate.release() }
        let (index, fault) = transport.takeFault()
        switch fault {
        case .none:
            try await base.write(bytes)
        case .drop:
            transport.report(fault, writeIndex: index)
        case .delay(let duration):
            transport.report(fault, writeIndex: index)
            try await Self.sleep(on: transport.clock, for: duration)
            try await base.write(bytes)
        case .disconnectMidFrame:
            try await base.write(Array(bytes.prefix(bytes.count / 2)))
            await base.close()
            transport.report(fault, writeIndex: index)
            throw TransportError(.connectionClosed, "write on \(description): disconnected mid-frame (injected)")
        case .corrupt(let byteOffset):
            var corrupted = bytes
            if !corrupted.isEmpty {
                corrupted[min(max(byteOffset, 0), corrupted.count - 1)] ^= 0xFF
            }
            try await base.write(corrupted)
            transport.report(fault, writeIndex: index)
        case .disconnect:
            await base.close()
            transport.report(fault, writeIndex: index)
            throw TransportError(.connectionClosed, "write on \(description): disconnected (injected)")
        }
    }

    func flush() async {
        await base.flush()
    }

    func close() async {
        await base.close()
    }

    private static func sleep(on clock: some Clock<Duration>, for duration: Duration) async throws {
        try await clock.sleep(for: duration)
    }
}

/// A first-come first-served async lock: one write at a time per connection.
///
/// Bound: one waiter per concurrently writing task.
final class WriteGate: Sendable {
    private struct State {
        var held = false
        var nextID: UInt64 = 0
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    }

    private let state = Mutex(State())

    /// Waits for the gate; throws `CancellationError` (without holding it) if cancelled while waiting.
    func acquire() async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case acquired, cancelled, waiting }
                let outcome: Outcome = state.withLock { state in
                    if Task.isCancelled { return .cancelled }
                    if !state.held {
                        state.held = true
                        return .acquired
                    }
                    state.waiters.append((id, continuation))
                    return .waiting
                }
                switch outcome {
                case .acquired: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .waiting: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Hands the gate to the next waiter, or opens it.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard !state.waiters.isEmpty else {
                state.held = false
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume()
    }
}
