import Foundation
import GRDB
import Logging

extension PairStore {
    /// Opens or creates the store in `configuration.directory`.
    ///
    /// Creates the directory (mode 0700, with missing parents) if absent. An existing database file is first
    /// checked through a separate read-only connection — SQLite header, `PRAGMA quick_check`, application id,
    /// schema version — and a file that cannot be opened or fails the check throws (`.cannotOpen` /
    /// `.corrupt`) and is never modified, moved or deleted. Then opens a GRDB `DatabasePool` (WAL mode) and,
    /// after GRDB's own setup (which sets `synchronous=NORMAL` in WAL), sets `synchronous=FULL` for `.power`
    /// or `NORMAL` for `.process`. Runs the schema migrations; a new store gets a random `storeId`. Last,
    /// creates the file spool and removes what a crash left in it without a row (`sweepSpool`).
    ///
    /// `loops`: finds the caller's event loop, where a userInfo write that comes alone is committed under
    /// `.power` (``StoreWriter``); nil commits every userInfo write on the store's writer thread.
    public static func open(
        _ configuration: StoreConfiguration, logger: Logger, loops: CurrentEventLoop? = nil
    ) async throws(StoreError) -> PairStore {
        let path = configuration.databasePath
        let (database, existed, (storeId, lastSeq)) = try await StoreDatabase.open(configuration, logger: logger) { database in
            guard let value = try StoreSchema.meta(database, StoreSchema.Key.storeId),
                  let storeId = StoreColumns.uuid(value)
            else { throw StoreError.undecodable("store id", path: path) }
            return (storeId, try StoreSchema.metaInteger(database, StoreSchema.Key.lastSeq, path: path))
        }
        logger.info(
            existed ? "store opened" : "store created",
            metadata: [
                "path": "\(path)", "storeId": "\(storeId)", "durability": "\(configuration.durability.rawValue)",
            ])
        let store = PairStore(
            database: database, configuration: configuration, storeId: storeId,
            highestSeq: UInt64(clamping: lastSeq), logger: logger, loops: loops)
        do {
            try store.files.spool.create()
            try await store.files.sweepSpool()
        } catch {
            try? await database.close()
            throw error
        }
        return store
    }
}
