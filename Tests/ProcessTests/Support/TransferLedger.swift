import Synchronization

/// What the sending workers of the crash test did: which payload numbers are claimed, which transfers
/// were accepted (id, seq), which attempts ended with an unknown outcome, and what failed otherwise.
///
/// Shared by the workers and the killer; ``waitForAccepted(atLeast:)`` lets the killer strike at a
/// chosen point of the stream without polling.
final class TransferLedger: Sendable {
    private struct State {
        var next = 1
        var accepted: [String: DeliveryCheck.Accepted] = [:]
        var unknownOutcome: Set<Int> = []
        var failures: [String] = []
        var closed = false
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    /// How many transfers to send.
    let total: Int
    private let state = Mutex(State())

    /// A ledger for `total` transfers, numbered 1…total.
    init(total: Int) {
        self.total = total
    }

    /// The next payload number to send, or nil when all are claimed or the ledger is closed.
    func claim() -> Int? {
        state.withLock { s in
            guard !s.closed, s.next <= total else { return nil }
            defer { s.next += 1 }
            return s.next
        }
    }

    /// Records an accepted transfer and wakes the waiters it satisfies.
    func accept(n: Int, id: String, seq: Int64) {
        let woken = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.accepted[id] = DeliveryCheck.Accepted(n: n, seq: seq)
            let count = s.accepted.count
            let ready = s.waiters.filter { $0.count <= count }.map(\.continuation)
            s.waiters.removeAll { $0.count <= count }
            return ready
        }
        for continuation in woken { continuation.resume() }
    }

    /// Records an attempt for `n` whose outcome is unknown (the daemon went away).
    func unknown(_ n: Int) {
        state.withLock { _ = $0.unknownOutcome.insert(n) }
    }

    /// Records a failure that is neither success nor "daemon not running".
    func fail(_ message: String) {
        state.withLock { $0.failures.append(message) }
    }

    /// The accepted transfers so far.
    var accepted: [String: DeliveryCheck.Accepted] { state.withLock { $0.accepted } }
    /// Payload numbers with unknown-outcome attempts.
    var unknownOutcome: Set<Int> { state.withLock { $0.unknownOutcome } }
    /// Unexpected failures.
    var failures: [String] { state.withLock { $0.failures } }

    /// Returns once at least `count` transfers were accepted (at once if they already were), or the
    /// ledger is closed.
    func waitForAccepted(atLeast count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if s.accepted.count >= count || s.closed { return true }
                s.waiters.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// True once ``close()`` was called: workers stop, waits return at once.
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Ends the stream: wakes every waiter and makes later waits return at once (the workers are done
    /// or gave up, so the killer must not wait for a point that will never come), and stops workers.
    func close() {
        let all = state.withLock { s in
            s.closed = true
            defer { s.waiters = [] }
            return s.waiters.map(\.continuation)
        }
        for continuation in all { continuation.resume() }
    }
}
