import Foundation
import GRDB

/// The dedupe state for the peer store this side talks to: row `peer` (id = 1).
///
/// Knowledge about what was received is only valid for the peer store it was learned from: when the
/// peer store changes, the old store's state is kept in `peer_history` and the new store's state is
/// restored from there (0/0 for a store never heard from).
struct PeerRecord: Sendable, Hashable {
    /// The peer store, or nil when this side has never heard from one.
    var storeId: UUID?
    /// Highest userInfo seq held from `storeId`.
    var lastSeq: UInt64 = 0
    /// Highest context version held from `storeId`.
    var contextVersion: UInt64 = 0

    /// Switches to `peerStoreId`, keeping the current store's state in `peer_history` and restoring the
    /// new one's. Returns whether the peer store changed.
    mutating func switchTo(_ peerStoreId: UUID, in database: Database, path: String) throws -> Bool {
        guard storeId != peerStoreId else { return false }
        if let storeId {
            try database.cachedStatement(sql: """
                    INSERT INTO peer_history(store_id, last_seq, context_version) VALUES (?, ?, ?)
                    ON CONFLICT(store_id) DO UPDATE SET last_seq = excluded.last_seq,
                        context_version = excluded.context_version
                    """).execute(arguments: [StoreColumns.blob(storeId), StoreColumns.integer(lastSeq), StoreColumns.integer(contextVersion)])
        }
        self = PeerRecord(storeId: peerStoreId)
        if let row = try Row.fetchOne(
            database.cachedStatement(sql: "SELECT last_seq, context_version FROM peer_history WHERE store_id = ?"),
            arguments: [StoreColumns.blob(peerStoreId)])
        {
            lastSeq = try row.decode(0, "peer history last seq", path: path, StoreColumns.unsigned)
            contextVersion = try row.decode(1, "peer history context version", path: path, StoreColumns.unsigned)
        }
        return true
    }

    /// Loads the row; no row means never heard from a peer.
    static func load(_ database: Database, path: String) throws -> PeerRecord {
        guard let row = try Row.fetchOne(
            database.cachedStatement(sql: "SELECT store_id, last_seq, context_version FROM peer WHERE id = 1"))
        else { return PeerRecord() }
        return PeerRecord(
            storeId: try row.decode(0, "peer store id", path: path, StoreColumns.uuid),
            lastSeq: try row.decode(1, "peer last seq", path: path, StoreColumns.unsigned),
            contextVersion: try row.decode(2, "peer context version", path: path, StoreColumns.unsigned))
    }

    /// Writes the row (a record with no peer store is not written).
    func save(_ database: Database) throws {
        guard let storeId else { return }
        try database.cachedStatement(sql: """
                INSERT INTO peer(id, store_id, last_seq, context_version) VALUES (1, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET store_id = excluded.store_id, last_seq = excluded.last_seq,
                    context_version = excluded.context_version
                """).execute(arguments: [StoreColumns.blob(storeId), StoreColumns.integer(lastSeq), StoreColumns.integer(contextVersion)])
    }
}
