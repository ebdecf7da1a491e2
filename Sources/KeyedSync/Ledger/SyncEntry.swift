import Foundation

/// One key's value as it crosses: the key, its revision, and the value's JSON.
public struct SyncEntry: Sendable, Hashable, Codable {
    public var key: String
    public var revision: SyncRevision
    /// The value as JSON (`JSONEncoder`'s default strategies).
    public var value: Data

    public init(key: String, revision: SyncRevision, value: Data) {
        self.key = key
        self.revision = revision
        self.value = value
    }
}
