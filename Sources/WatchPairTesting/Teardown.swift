/// Runs `body`, then awaits `teardown`, whether `body` returned or threw.
///
/// The awaited `defer` of async tests: a `defer` cannot await, and a `Task` started in one is never
/// waited for, so the next test may start while the last one still tears down. `teardown` runs once,
/// after `body`, on the caller's actor; the error `body` threw is rethrown after it.
public func withTeardown<Value>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Value,
    teardown: () async -> Void
) async throws -> Value {
    let result: Value
    do {
        result = try await body()
    } catch {
        await teardown()
        throw error
    }
    await teardown()
    return result
}
