import WatchPairCore
import WatchPairWire

// The application context, both ways.
extension AppChannels {
    /// Replaces the application context (`updateApplicationContext`); returns once it is durable, with
    /// its version, or nil when it equals the last one sent.
    @discardableResult
    public func updateApplicationContext(_ payload: PlistDictionary) async throws(WCFailure) -> StoredContext? {
        try await engine.updateApplicationContext(payload)
    }

    /// The context this side last sent (`applicationContext`), empty when none.
    public func applicationContext() async throws(WCFailure) -> PlistDictionary {
        try await engine.applicationContext()
    }

    /// The context last received (`receivedApplicationContext`), empty when none.
    public func receivedApplicationContext() async throws(WCFailure) -> PlistDictionary {
        try await engine.receivedApplicationContext()
    }

    /// The context this side last sent, with its version; nil when none.
    public func sentContext() async throws(WCFailure) -> StoredContext? {
        try await reported { () async throws(StoreError) in try await store.contexts.sentContext() }
    }

    /// The context last received, with its version; nil when none.
    public func receivedContext() async throws(WCFailure) -> StoredContext? {
        try await reported { () async throws(StoreError) in try await store.contexts.receivedContext() }
    }

    /// The version of the context last received (0: none), held in memory: read the context only when
    /// it moved.
    public var receivedContextVersion: UInt64 {
        get async { await engine.receivedContextVersion }
    }

    /// A store read as the app sees its failure.
    private func reported<T>(_ read: () async throws(StoreError) -> T) async throws(WCFailure) -> T {
        do {
            return try await read()
        } catch {
            throw WCFailure(error.wcCode, error.message)
        }
    }
}
