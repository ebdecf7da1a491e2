import WatchPairCore

/// Thrown when a safety bound expires: the awaited event never came.
struct TimedOut: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

/// Runs `operation`, failing with `TimedOut` after `limit` of real time. The limit is a safety net
/// against a hung test, never the thing a test measures.
func within<T: Sendable>(
    _ limit: Duration = .seconds(20),
    _ what: String,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try? await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw TimedOut(what: what) }
        return value
    }
}

/// Waits until `condition` holds, re-checking each time `signal` fires.
func until(
    _ what: String,
    on signal: AsyncSignal,
    limit: Duration = .seconds(20),
    _ condition: @escaping @Sendable () async -> Bool
) async throws {
    try await within(limit, what) {
        while true {
            let seen = signal.generation
            if await condition() { return }
            await signal.wait(after: seen)
            try Task.checkCancellation()
        }
    }
}

extension AsyncStream where Element == DiagnosticEvent {
    /// The first event of `kind` (matching `predicate`), within a safety bound.
    func first(
        _ kind: DiagnosticEvent.Kind,
        where predicate: @escaping @Sendable (DiagnosticEvent) -> Bool = { _ in true }
    ) async throws -> DiagnosticEvent {
        let stream = self
        return try await within(.seconds(20), "event \(kind)") {
            for await event in stream where event.kind == kind && predicate(event) {
                return event
            }
            throw TimedOut(what: "event \(kind) (stream ended)")
        }
    }
}
