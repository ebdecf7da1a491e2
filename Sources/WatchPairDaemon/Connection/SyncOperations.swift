import KeyedSync
import WatchPairHost
import WatchPairWire

/// `syncSet`: sets a synced key's value, registering the key (or changing its options).
struct SyncSetOperation: ControlOperation {
    static let name = "syncSet"

    var key: String
    /// The key's new value, any JSON.
    var value: JSONValue
    var availability: SyncAvailability?
    var policy: SyncPolicy?

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        var key: String?
        var value: JSONValue?
        while let field = try fields.next() {
            switch field {
            case "key": key = try fields.name()
            case "value": value = try fields.json()
            case "availability": availability = try fields.option(SyncAvailability.self)
            case "policy": policy = try fields.option(SyncPolicy.self)
            default: try fields.skip()
            }
        }
        guard let key else { throw Self.missing("key") }
        guard let value else { throw Self.missing("value") }
        self.key = key
        self.value = value
    }
}

/// `syncGet`: one key's value and state.
struct SyncGetOperation: ControlOperation {
    static let name = "syncGet"

    var key: String

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        key = try Self.required("key", from: &fields) { fields throws(WCFailure) in try fields.name() }
    }
}

/// `syncList`: every key with its revision, last sync, needSync and why it is not sent.
struct SyncListOperation: FieldlessControlOperation {
    static let name = "syncList"
}

/// `syncNow`: sends what needs a sync now (and on the watch, asks the phone for its snapshot).
struct SyncNowOperation: FieldlessControlOperation {
    static let name = "syncNow"
}

/// Keyed sync's control operations: the daemon's face of `KeyedSync` (`wcctl sync`).
extension AppConnection {
    nonisolated func registerSyncOperations(on router: inout ControlRouter) {
        router.register(SyncSetOperation.self) { request, _ throws(WCFailure) in
            try await self.syncSet(key: request.key, value: request.value, availability: request.availability, policy: request.policy)
        }
        router.register(SyncGetOperation.self) { request, _ throws(WCFailure) in try await self.syncGet(key: request.key) }
        router.register(SyncListOperation.self) { _, _ throws(WCFailure) in try await self.syncList() }
        router.register(SyncNowOperation.self) { _, _ throws(WCFailure) in try await self.syncNow() }
    }
}
