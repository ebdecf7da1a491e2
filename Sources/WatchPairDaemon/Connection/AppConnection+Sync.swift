import Foundation
import KeyedSync
import WatchConnection
import WatchPairWire

/// The app's keyed sync as control operations (`wcctl sync`; docs/KeyedSync.md).
extension AppConnection {
    /// Keyed sync, once `run()` made it.
    private func sync() async throws(WCFailure) -> KeyedSync {
        _ = await connection()
        guard let keyedSync else { throw WCFailure(.genericError, "keyed sync is not running") }
        return keyedSync
    }

    /// `syncSet`: registers `key` (the first time, or with new options: unnamed options keep what the
    /// key had, by default `all` and `automaticSmall`) and sets its value; the key's state after it.
    func syncSet(key: String, value: JSONValue, availability: SyncAvailability?, policy: SyncPolicy?) async throws(WCFailure) -> JSONValue {
        let sync = try await sync()
        let held = sync.status(of: key)?.options
        if held == nil || availability != nil || policy != nil {
            sync.register(
                key,
                availability: availability ?? held?.availability ?? .all,
                policy: policy ?? held?.policy ?? .automaticSmall)
        }
        do {
            try sync.set(JSONBody(value), for: key)
        } catch {
            throw WCFailure(.genericError, error.description)
        }
        return try Self.json(sync.status(of: key), key: key)
    }

    /// `syncGet`: one key's value and state; 7008 naming the key when this app knows nothing of it.
    func syncGet(key: String) async throws(WCFailure) -> JSONValue {
        try Self.json(try await sync().status(of: key), key: key)
    }

    /// `syncList`: every key this app knows, by key.
    func syncList() async throws(WCFailure) -> JSONValue {
        let sync = try await sync()
        return .object(["keys": .array(sync.keys.map(Self.json))])
    }

    /// `syncNow`: sends what needs a sync and, on the watch, asks the phone for its snapshot; returns
    /// once both ended (confirmed, answered, or failed: `syncFailed` says why), with the keys after.
    func syncNow() async throws(WCFailure) -> JSONValue {
        let sync = try await sync()
        if sync.side == .watch { await sync.requestSnapshot() }
        await sync.syncRegisteredKeysIfNeeded()
        return try await syncList()
    }

    private static func json(_ status: SyncKeyStatus?, key: String) throws(WCFailure) -> JSONValue {
        guard let status else { throw WCFailure(.invalidParameter, "no synced key '\(key)' in this app") }
        return json(status)
    }

    /// A key as `wcctl sync` prints it.
    static func json(_ status: SyncKeyStatus) -> JSONValue {
        var object: [String: JSONValue] = [
            "key": .string(status.key), "registered": .bool(status.options != nil), "needSync": .bool(status.needSync),
        ]
        if let options = status.options {
            object["availability"] = .string(options.availability.rawValue)
            object["policy"] = .string(options.policy.rawValue)
        }
        if let revision = status.revision { object["revision"] = .string("\(revision)") }
        if let value = status.value, let body = try? JSONDecoder().decode(JSONBody.self, from: value) {
            object["value"] = JSONValue(body)
        }
        if let time = status.lastSyncTime {
            object["lastSyncTime"] = .string(time.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true)))
        }
        if let blocked = status.blocked { object["notSent"] = .string(blocked.description) }
        return .object(object)
    }
}
