import WatchPairCore

extension AsyncSignal {
    /// The first value `probe` returns: checked at once, then again each time the signal fires.
    ///
    /// Waits without a bound of its own; wrap it in ``withTimeout(_:_:clock:_:)`` for one. The
    /// generation is read before each probe, so a `fire()` between the probe and the wait is never
    /// lost. Throws `CancellationError` once the calling task is cancelled.
    public func first<Value>(_ probe: () async throws -> Value?) async throws -> Value {
        while true {
            let seen = generation
            if let value = try await probe() { return value }
            await wait(after: seen)
            try Task.checkCancellation()
        }
    }
}
