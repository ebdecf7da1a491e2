import Foundation
import GRDB
import Logging
import WatchPairWire

/// The application-context part of the durable store: the context this side sends, the one it received,
/// and what the peer and the app were told of each (docs/Store.md).
///
/// The rows live in the same SQLite file as ``PairStore``'s, through the same ``StoreDatabase`` (one writer,
/// one commit order); a received context updates the peer's dedupe record (``PeerRecord``) in the same
/// transaction, as a received transfer does. A type of its own, like ``FileStore``, so that each of the
/// store's parts stays one idea; ``PairStore/contexts`` is the way in. Thread-safe like ``PairStore``; after
/// the store is closed every call throws `.ioFailure`.
///
/// "Delivered to the app" is tracked by a local revision of the received context (+1 per stored receive),
/// not by the sender's version, because versions restart at 1 when the peer store changes: a new peer's
/// version 1 must still be delivered even if the old peer's version 5 was.
public final class ContextStore: Sendable {
    /// The SQLite file and its transactions, shared with the ``PairStore`` that owns this.
    let database: StoreDatabase
    let logger: Logger
    /// The database file.
    var path: String { database.path }

    init(database: StoreDatabase, logger: Logger) {
        self.database = database
        self.logger = logger
    }

    /// Sets the context this side sends.
    ///
    /// Returns nil (and writes nothing) when `payload` equals the current sent context: identical updates
    /// are not re-sent. Otherwise stores it with version = previous + 1 (1 for the first) and returns it. An
    /// empty dictionary is a real value (it clears the peer's received context) — unless the current one is
    /// already empty-and-set. Never-set and empty are different states. A payload nested deeper than
    /// `PlistCodec.maxNestingDepth` throws `.ioFailure` (it could never be read back).
    public func setSentContext(_ payload: PlistDictionary) async throws(StoreError) -> StoredContext? {
        try await setSentContext(StoreColumns.encoded(payload, path: path))
    }

    /// ``setSentContext(_:)-(PlistDictionary)`` for a payload encoded where it entered: its bytes are stored as
    /// they are. "Equal" compares the dictionaries, not the bytes (so `0.0` and `-0.0`, or two spellings of
    /// one Unicode string, stay identical updates as they are for Apple); equal bytes settle it without decoding.
    public func setSentContext(_ payload: EncodedDictionary) async throws(StoreError) -> StoredContext? {
        let path = self.path
        return try await database.write("setting the application context") { database in
            let current = try Self.sentContextBytes(database, path: path)
            if let current, current.payload.bytes == payload.bytes || current.payload.dictionary == payload.dictionary {
                return nil
            }
            let stored = StoredContext(version: (current?.version ?? 0) + 1, payload: payload.dictionary)
            try database.cachedStatement(sql: """
                    INSERT INTO context_sent(id, version, payload) VALUES (1, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET version = excluded.version, payload = excluded.payload
                    """).execute(arguments: [StoreColumns.integer(stored.version), Data(payload.bytes)])
            return stored
        }
    }

    /// The context this side last set, as its stored bytes (to send; the peer validates the frame), or nil.
    public func sentContextForSending() async throws(StoreError) -> (version: UInt64, payload: EncodedDictionary)? {
        let path = self.path
        return try await database.read("reading the application context") { try Self.sentContextBytes($0, path: path) }
    }

    /// The context this side last set, or nil when it never set one.
    public func sentContext() async throws(StoreError) -> StoredContext? {
        let path = self.path
        return try await database.read("reading the application context") { try Self.sentContext($0, path: path) }
    }

    /// The peer durably holds sent-context version `version` (monotonic: a lower value is ignored).
    /// `.relaxed` commit: if a power failure loses it, the context is sent again and the peer, holding that
    /// version, ignores it.
    public func setPeerContextAck(_ version: UInt64) async throws(StoreError) {
        let path = self.path
        try await database.write("recording the context acknowledgement", sync: .relaxed) { database in
            let current = UInt64(bitPattern: try StoreSchema.metaInteger(database, StoreSchema.Key.contextPeerAck, path: path))
            guard version > current else { return }
            try StoreSchema.setMeta(database, StoreSchema.Key.contextPeerAck, StoreColumns.integer(version))
        }
    }

    /// The highest sent-context version the peer durably holds (0: none).
    public func peerContextAck() async throws(StoreError) -> UInt64 {
        let path = self.path
        return try await database.read("reading the context acknowledgement") { database in
            UInt64(bitPattern: try StoreSchema.metaInteger(database, StoreSchema.Key.contextPeerAck, path: path))
        }
    }

    /// Stores a received context when `version` is newer than the one held from `peerStoreId` (or the peer
    /// store changed, which resets the dedupe state as `receive` does). Returns the stored context, or nil
    /// when it was not newer. The dedupe state and the context change in one transaction.
    public func receiveContext(
        from peerStoreId: UUID, version: UInt64, payload: PlistDictionary
    ) async throws(StoreError) -> StoredContext? {
        try await receiveContext(from: peerStoreId, version: version, payload: StoreColumns.encoded(payload, path: path))
    }

    /// ``receiveContext(from:version:payload:)-(_,_,PlistDictionary)`` for a payload as a frame carried it:
    /// its bytes (validated by the frame decoder) are stored as they are.
    public func receiveContext(
        from peerStoreId: UUID, version: UInt64, payload: EncodedDictionary
    ) async throws(StoreError) -> StoredContext? {
        let path = self.path
        let (stored, changed) = try await database.write("storing a received application context") { database in
            var peer = try PeerRecord.load(database, path: path)
            let changed = try peer.switchTo(peerStoreId, in: database, path: path)
            guard version > peer.contextVersion else {
                if changed { try peer.save(database) }
                return (StoredContext?.none, changed)
            }
            peer.contextVersion = version
            try peer.save(database)
            try database.cachedStatement(sql: """
                    INSERT INTO context_received(id, version, payload, revision) VALUES (1, ?, ?, 1)
                    ON CONFLICT(id) DO UPDATE SET version = excluded.version, payload = excluded.payload,
                        revision = revision + 1
                    """).execute(arguments: [StoreColumns.integer(version), Data(payload.bytes)])
            return (StoredContext(version: version, payload: payload.dictionary), changed)
        }
        if changed { logger.info("now linked to peer store", metadata: ["peerStoreId": "\(peerStoreId)"]) }
        return stored
    }

    /// The context last received (from any peer store), or nil when none was ever received.
    public func receivedContext() async throws(StoreError) -> StoredContext? {
        let path = self.path
        return try await database.read("reading the received application context") { database in
            try Self.receivedContext(database, path: path)?.context
        }
    }

    /// A value `v` such that `receivedContext().version > v` exactly when the app has not been told about
    /// the received context (for didReceiveApplicationContext at launch). 0 when nothing was received.
    ///
    /// It equals the received version once that context is delivered; it is not monotonic across a peer
    /// store change (the new peer's versions restart at 1). Prefer `undeliveredReceivedContext()`.
    public func contextDeliveredVersion() async throws(StoreError) -> UInt64 {
        let path = self.path
        return try await database.read("reading the delivered context version") { database in
            guard let held = try Self.receivedContext(database, path: path) else { return 0 }
            let delivered = try StoreSchema.metaInteger(database, StoreSchema.Key.contextDeliveredRevision, path: path)
            return delivered >= held.revision ? held.context.version : held.context.version - 1
        }
    }

    /// The received context when the app has not yet been told about it, else nil.
    public func undeliveredReceivedContext() async throws(StoreError) -> StoredContext? {
        let path = self.path
        return try await database.read("reading the received application context") { database in
            guard let held = try Self.receivedContext(database, path: path) else { return nil }
            let delivered = try StoreSchema.metaInteger(database, StoreSchema.Key.contextDeliveredRevision, path: path)
            return delivered >= held.revision ? nil : held.context
        }
    }

    /// The app has been told about received context `version`. Applies only when `version` is the version
    /// currently held (a mark for a context since replaced is ignored, so the newer one is still delivered).
    public func markContextDelivered(version: UInt64) async throws(StoreError) {
        let path = self.path
        try await database.write("recording context delivery") { database in
            guard let held = try Self.receivedContext(database, path: path), held.context.version == version else { return }
            let delivered = try StoreSchema.metaInteger(database, StoreSchema.Key.contextDeliveredRevision, path: path)
            guard held.revision > delivered else { return }
            try StoreSchema.setMeta(database, StoreSchema.Key.contextDeliveredRevision, held.revision)
        }
    }

    private static func sentContext(_ database: Database, path: String) throws -> StoredContext? {
        guard let row = try Row.fetchOne(database.cachedStatement(sql: "SELECT version, payload FROM context_sent WHERE id = 1")) else { return nil }
        return StoredContext(
            version: try row.decode(0, "sent context version", path: path, StoreColumns.unsigned),
            payload: try row.decode(1, "sent context", path: path, StoreColumns.payload))
    }

    private static func sentContextBytes(
        _ database: Database, path: String
    ) throws -> (version: UInt64, payload: EncodedDictionary)? {
        guard let row = try Row.fetchOne(database.cachedStatement(sql: "SELECT version, payload FROM context_sent WHERE id = 1")) else { return nil }
        return (
            try row.decode(0, "sent context version", path: path, StoreColumns.unsigned),
            try row.decode(1, "sent context", path: path, StoreColumns.storedPayload))
    }

    private static func receivedContext(_ database: Database, path: String) throws -> (context: StoredContext, revision: Int64)? {
        guard let row = try Row.fetchOne(
            database.cachedStatement(sql: "SELECT version, payload, revision FROM context_received WHERE id = 1"))
        else { return nil }
        let context = StoredContext(
            version: try row.decode(0, "received context version", path: path, StoreColumns.unsigned),
            payload: try row.decode(1, "received context", path: path, StoreColumns.payload))
        return (context, try row.decode(2, "received context revision", path: path) { Int64.fromDatabaseValue($0) })
    }
}
