import WatchPairCore
import WatchPairTesting

/// Thrown when a stream ends before the element a test waits for.
struct StreamEnded: Error, CustomStringConvertible {
    let what: String
    var description: String { "the stream ended before \(what)" }
}

/// Waits until `condition` holds, re-checking each time `signal` fires; fails with `TimedOut` after
/// `limit` (a safety net).
func until(
    _ what: String,
    on signal: AsyncSignal,
    limit: Duration = .seconds(60),
    _ condition: @escaping @Sendable () async -> Bool
) async throws {
    try await withTimeout(limit, what) {
        try await signal.first { await condition() ? () : nil }
    }
}

extension AsyncStream where Element == DiagnosticEvent {
    /// The first event of `kind` (matching `predicate`), within a safety bound.
    func first(
        _ kind: DiagnosticEvent.Kind,
        where predicate: @escaping @Sendable (DiagnosticEvent) -> Bool = { _ in true }
    ) async throws -> DiagnosticEvent {
        let stream = self
        return try await withTimeout(.seconds(60), "event \(kind)") {
            for await event in stream where event.kind == kind && predicate(event) {
                return event
            }
            throw StreamEnded(what: "event \(kind)")
        }
    }
}
