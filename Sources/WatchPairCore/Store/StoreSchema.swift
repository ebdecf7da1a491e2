// The on-disk format of the durable store (also in docs/Store.md).
//
// One SQLite file `<directory>/watchpair.sqlite` in WAL mode, `PRAGMA application_id = 0x57435061`
// ("WCPa"), schema created by GRDB migrations (table `grdb_migrations`). Integers are SQLite INTEGER
// (Int64); UInt64 values from the peer are stored by bit pattern. UUIDs are 16-byte BLOBs. Dates are REAL
// seconds since 2001-01-01 (exact `Date` round trip). Payloads are `PlistCodec.encode` BLOBs.
// Stores created since issue 10 use 1 KiB pages (`pageSize`), older ones keep 4 KiB; both read the same.
//
//   meta(key TEXT PRIMARY KEY, value)                 one value per key:
//     'store_id'                  BLOB(16)  random at creation, never changes
//     'last_seq'                  INTEGER   highest outbox seq ever assigned (seqs are never reused)
//     'context_peer_ack'          INTEGER   highest sent-context version the peer durably holds
//     'context_delivered_rev'     INTEGER   context_received.revision last handed to the app
//   outbox(seq INTEGER PRIMARY KEY, transfer_id BLOB NOT NULL UNIQUE, payload BLOB NOT NULL,
//          created_at REAL NOT NULL, finished INTEGER NOT NULL)   index outbox_state(finished, seq)
//     finished = 0: outstanding; 1: acknowledged, didFinish not yet reported. Cancelled and reported rows
//     are deleted. Invariant: every seq <= meta.last_seq. transfer_id: time-ordered (UUID version 7,
//     `TransferIdGenerator`) when the store assigns it, so the unique index grows at its end; older rows
//     may hold random ids.
//   inbox(delivery_id INTEGER PRIMARY KEY AUTOINCREMENT, peer_store_id BLOB NOT NULL, seq INTEGER NOT NULL,
//         transfer_id BLOB NOT NULL, payload BLOB NOT NULL, received_at REAL NOT NULL)
//     received, not yet taken by the app; AUTOINCREMENT so delivery ids are never reused.
//   peer(id INTEGER PRIMARY KEY CHECK (id = 1), store_id BLOB NOT NULL, last_seq INTEGER NOT NULL,
//        context_version INTEGER NOT NULL)
//     dedupe state for the peer store this side talks to now. Invariant: inbox rows and peer.last_seq
//     change in the same transaction.
//   peer_history(store_id BLOB PRIMARY KEY, last_seq INTEGER NOT NULL, context_version INTEGER NOT NULL)   (v2)
//     the dedupe state of every other peer store heard from: switching to a peer store restores its state
//     (0/0 only for a store never heard from), so a second sender (a recreated store, or a stray process
//     with allowed credentials) cannot make this side forget what it holds from the real one.
//   file_outbox(seq INTEGER PRIMARY KEY, transfer_id BLOB NOT NULL UNIQUE, file_name TEXT NOT NULL,
//               size INTEGER NOT NULL, checksum INTEGER NOT NULL, metadata BLOB, created_at REAL NOT NULL,
//               outcome INTEGER NOT NULL)   (v3)
//     the sender's accepted files; the bytes are spool/outgoing/<transfer id>, fsynced before the row
//     commits. metadata NULL: the app gave none. outcome 0: outstanding; 1 received, 2 corrupt: finished,
//     didFinish not yet reported. Cancelled and reported rows are deleted with their copy. seqs come from
//     meta 'last_file_seq' and are never reused.
//   file_inbox(transfer_id BLOB PRIMARY KEY, peer_store_id BLOB NOT NULL, seq INTEGER NOT NULL,
//              file_name TEXT NOT NULL, size INTEGER NOT NULL, checksum INTEGER NOT NULL, metadata BLOB,
//              durable_offset INTEGER NOT NULL, running_crc INTEGER NOT NULL, complete INTEGER NOT NULL,
//              received_at REAL NOT NULL)   (v3)
//     the receiver's files; the bytes are spool/incoming/<transfer id>, whose first durable_offset bytes
//     are fsynced (running_crc is their CRC-32C). complete 1: every byte in and the checksum matched,
//     waiting for the app.
//   file_peer(store_id BLOB PRIMARY KEY, last_seq INTEGER NOT NULL, last_outcome INTEGER NOT NULL)   (v3)
//     per peer store, the highest file seq passed (received, corrupt or cancelled) and how it ended, so an
//     offer of a passed file is answered, never delivered again. Changes in the transaction that passes it.
//   context_sent(id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL, payload BLOB NOT NULL)
//     no row: never set. version increases by 1 per distinct update.
//   context_received(id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL, payload BLOB NOT NULL,
//                    revision INTEGER NOT NULL)
//     no row: never received. version: the sender's; revision: local, +1 per stored receive (survives
//     peer store changes, so "delivered to the app" is tracked across them).
//   outbox.complication, inbox.complication INTEGER NOT NULL DEFAULT 0   (v4)
//   inbox.queue INTEGER NOT NULL DEFAULT 0: the InboxQueue the row was routed to on arrival (v5)
//     1: sent or received as the current complication info (`isCurrentComplicationInfo`); rows written
//     before v4 read as 0, plain userInfo.
//   meta 'complication_day', 'complication_used'   (v4, written on first use)
//     the complication budget: the UTC day counted (days since 1970) and the transfers counted on it.

import Foundation
import GRDB

/// The schema of the store and its migrations (see the comment at the top of this file).
enum StoreSchema {
    /// `PRAGMA application_id` of a WatchPair store ("WCPa"), so another SQLite file is refused, not altered.
    static let applicationId: Int32 = 0x5743_5061

    /// The page size of a new store. A transfer touches a few rows, and every page it touches is written
    /// whole to the WAL and again at the checkpoint: with rows of a few hundred bytes, 1 KiB pages write
    /// about a third of what SQLite's 4 KiB default does (BENCHMARKS.md). Fixed when the file is created
    /// (WAL mode cannot change it), so existing stores keep theirs.
    static let pageSize = 1024

    /// Meta keys.
    enum Key {
        static let storeId = "store_id"
        static let lastSeq = "last_seq"
        static let contextPeerAck = "context_peer_ack"
        static let contextDeliveredRevision = "context_delivered_rev"
        static let lastFileSeq = "last_file_seq"
        static let complicationDay = "complication_day"
        static let complicationUsed = "complication_used"
    }

    /// Every migration, in order. Each runs in one transaction with the others' effects visible.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "PRAGMA application_id = \(applicationId)")
            try db.execute(sql: """
                CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value);
                CREATE TABLE outbox (
                    seq INTEGER PRIMARY KEY,
                    transfer_id BLOB NOT NULL UNIQUE,
                    payload BLOB NOT NULL,
                    created_at REAL NOT NULL,
                    finished INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1))
                );
                CREATE INDEX outbox_state ON outbox(finished, seq);
                CREATE TABLE inbox (
                    delivery_id INTEGER PRIMARY KEY AUTOINCREMENT,
                    peer_store_id BLOB NOT NULL,
                    seq INTEGER NOT NULL,
                    transfer_id BLOB NOT NULL,
                    payload BLOB NOT NULL,
                    received_at REAL NOT NULL
                );
                CREATE TABLE peer (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    store_id BLOB NOT NULL,
                    last_seq INTEGER NOT NULL,
                    context_version INTEGER NOT NULL
                );
                CREATE TABLE context_sent (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    version INTEGER NOT NULL,
                    payload BLOB NOT NULL
                );
                CREATE TABLE context_received (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    version INTEGER NOT NULL,
                    payload BLOB NOT NULL,
                    revision INTEGER NOT NULL
                );
                """)
            try setMeta(db, Key.storeId, StoreColumns.blob(UUID()))
            try setMeta(db, Key.lastSeq, Int64(0))
        }
        migrator.registerMigration("v2-peer-history") { db in
            try db.execute(
                sql: """
                    CREATE TABLE peer_history (
                        store_id BLOB PRIMARY KEY,
                        last_seq INTEGER NOT NULL,
                        context_version INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v3-files") { db in
            try db.execute(
                sql: """
                    CREATE TABLE file_outbox (
                        seq INTEGER PRIMARY KEY,
                        transfer_id BLOB NOT NULL UNIQUE,
                        file_name TEXT NOT NULL,
                        size INTEGER NOT NULL,
                        checksum INTEGER NOT NULL,
                        metadata BLOB,
                        created_at REAL NOT NULL,
                        outcome INTEGER NOT NULL DEFAULT 0 CHECK (outcome IN (0, 1, 2))
                    );
                    CREATE TABLE file_inbox (
                        transfer_id BLOB PRIMARY KEY,
                        peer_store_id BLOB NOT NULL,
                        seq INTEGER NOT NULL,
                        file_name TEXT NOT NULL,
                        size INTEGER NOT NULL,
                        checksum INTEGER NOT NULL,
                        metadata BLOB,
                        durable_offset INTEGER NOT NULL,
                        running_crc INTEGER NOT NULL,
                        complete INTEGER NOT NULL CHECK (complete IN (0, 1)),
                        received_at REAL NOT NULL
                    ) WITHOUT ROWID;
                    CREATE TABLE file_peer (
                        store_id BLOB PRIMARY KEY,
                        last_seq INTEGER NOT NULL,
                        last_outcome INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    """)
            try setMeta(db, Key.lastFileSeq, Int64(0))
        }
        migrator.registerMigration("v4-complications") { db in
            try db.execute(
                sql: """
                    ALTER TABLE outbox ADD COLUMN complication INTEGER NOT NULL DEFAULT 0 CHECK (complication IN (0, 1));
                    ALTER TABLE inbox ADD COLUMN complication INTEGER NOT NULL DEFAULT 0 CHECK (complication IN (0, 1));
                    """)
        }
        // Rows received before stay the app's: the routing starts with this version.
        migrator.registerMigration("v5-inbox-queues") { db in
            try db.execute(sql: "ALTER TABLE inbox ADD COLUMN queue INTEGER NOT NULL DEFAULT 0 CHECK (queue BETWEEN 0 AND 255);")
        }
        return migrator
    }

    /// Reads one meta value, or nil when the key is absent.
    static func meta(_ db: Database, _ key: String) throws -> DatabaseValue? {
        try DatabaseValue.fetchOne(db.cachedStatement(sql: "SELECT value FROM meta WHERE key = ?"), arguments: [key])
    }

    /// Reads an integer meta value; absent means 0.
    static func metaInteger(_ db: Database, _ key: String, path: String) throws -> Int64 {
        guard let value = try meta(db, key), !value.isNull else { return 0 }
        guard let integer = Int64.fromDatabaseValue(value) else { throw StoreError.undecodable("meta \(key)", path: path) }
        return integer
    }

    /// Writes one meta value.
    static func setMeta(_ db: Database, _ key: String, _ value: some DatabaseValueConvertible) throws {
        try db.cachedStatement(
            sql: "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
        ).execute(arguments: [key, value])
    }
}
