import Foundation

/// What a connection's event loop takes from its session, in order: the session's events, and
/// barriers that a host waits on (`waitUntilSessionEventsHandled()`).
enum SessionInput: Sendable {
    /// An event of the session.
    case event(SessionEvent)
    /// A diagnostic event of the receiver (which runs off the main actor), reported in order here.
    case emit(DiagnosticEvent)
    /// Resumes the barrier's waiter: every input before it has been handled.
    case barrier(UUID)
}

/// The callers of `waitUntilSessionEventsHandled()` waiting for their barrier to pass the event loop.
/// Each is resumed exactly once: when the loop reaches its barrier, or when the connection closes.
/// Bound: one entry per waiting caller.
@MainActor
final class SessionBarriers {
    private var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]

    /// Puts a barrier into `input` and waits until the loop passes it; at once when it cannot be queued.
    func wait(in input: AsyncStream<SessionInput>.Continuation) async {
        let id = UUID.random()
        await withCheckedContinuation { continuation in
            waiters[id] = continuation
            if case .enqueued = input.yield(.barrier(id)) { return }
            // The loop is gone (closed) or stuck (full): waiting would never end.
            passed(id)
        }
    }

    /// The loop reached barrier `id`.
    func passed(_ id: UUID) {
        waiters.removeValue(forKey: id)?.resume()
    }

    /// Resumes every waiter (the loop ended).
    func releaseAll() {
        for id in Array(waiters.keys) { passed(id) }
    }
}
