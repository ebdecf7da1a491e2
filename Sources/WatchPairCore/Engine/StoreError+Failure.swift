import WatchPairWire

extension StoreError {
    /// The error as a channel caller sees it.
    var failure: WCFailure { WCFailure(wcCode, message) }

    /// Runs a store call for the app (a read, an acknowledgement): a store error reaches the app as its
    /// ``failure``. Runs in the caller's isolation, so the engine's API stays on its actor.
    static func reported<T>(
        isolation: isolated (any Actor)? = #isolation, _ call: () async throws(StoreError) -> T
    ) async throws(WCFailure) -> T {
        do {
            return try await call()
        } catch {
            throw error.failure
        }
    }
}
