import WatchPairWire

/// An application context as the store holds it: a version and the dictionary.
///
/// For the sent context the version is this store's, increasing by one per distinct update. For the
/// received context it is the sender store's version.
public struct StoredContext: Sendable, Hashable {
    /// The sender store's version of this context (1 for the first one).
    public var version: UInt64
    /// The context dictionary; empty is a real value (it clears the peer's received context).
    public var payload: PlistDictionary

    /// Creates a value; the store creates the ones it returns.
    public init(version: UInt64, payload: PlistDictionary) {
        self.version = version
        self.payload = payload
    }
}
