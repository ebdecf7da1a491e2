import Foundation
import GRDB
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension StoreDatabase {
    /// Opens or creates the database file of `configuration` (see `PairStore.open(_:logger:)` for the checks),
    /// runs the schema migrations, counts the queues, and reads `initial` in the same snapshot. Returns
    /// whether the file existed before. Closes the pool again when anything after opening it fails.
    static func open<T: Sendable>(
        _ configuration: StoreConfiguration, logger: Logger,
        reading initial: @escaping @Sendable (Database) throws -> T
    ) async throws(StoreError) -> (database: StoreDatabase, existed: Bool, initial: T) {
        let path = configuration.databasePath
        try makeDirectory(configuration.directory)
        let existed = FileManager.default.fileExists(atPath: path)
        if existed {
            try checkExisting(at: path)
        } else if FileManager.default.fileExists(atPath: path + "-wal") {
            // Opening would create an empty database next to a WAL that may hold someone's data.
            throw StoreError(.cannotOpen, "a WAL file exists without its database; refusing to create a new one", path: path + "-wal")
        }

        var grdb = Configuration()
        grdb.label = "watchpair.store"
        grdb.maximumReaderCount = 4
        if !existed {
            // Before GRDB switches the new file to WAL, the last moment the page size can be chosen.
            grdb.prepareDatabase { database in
                try database.execute(sql: "PRAGMA page_size = \(StoreSchema.pageSize)")
            }
        }
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: grdb)
        } catch {
            throw StoreError(error, attempting: "opening the database", path: path, duringOpen: true)
        }
        do {
            let synchronous = configuration.durability == .power ? "FULL" : "NORMAL"
            try await pool.writeWithoutTransaction { database in
                try database.execute(sql: "PRAGMA synchronous = \(synchronous)")
                // Debian's SQLite is built with secure_delete on: every deleted row is overwritten with
                // zeros, so a delivered or reported transfer's payload went through the WAL and the
                // checkpoint a second time (8 bytes written per payload byte across the pair instead
                // of 4; BENCHMARKS.md, "Cost growth"). The state directory is the app's own (0700).
                try database.execute(sql: "PRAGMA secure_delete = OFF")
            }
            try StoreSchema.migrator.migrate(pool)
            let (queueLengths, value) = try await pool.read { database in
                (try QueueLengths.count(database), try initial(database))
            }
            let database = StoreDatabase(
                pool: pool, path: path, durability: configuration.durability, queueLengths: queueLengths, logger: logger)
            return (database, existed, value)
        } catch {
            try? pool.close()
            throw StoreError(error, attempting: "setting up the database", path: path, duringOpen: true)
        }
    }

    /// Creates `directory` and any missing parents with mode 0700; an existing directory is left as is.
    static func makeDirectory(_ directory: String) throws(StoreError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw StoreError(.cannotOpen, "the state directory path is not a directory", path: directory) }
            return
        }
        var prefix = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0, errno != EEXIST {
                let code = errno
                throw StoreError(
                    .cannotOpen,
                    "mkdir(\(prefix), 0700) failed: \(String(cString: strerror(code))) (errno \(code))",
                    path: directory)
            }
        }
    }

    /// Whether the file is a store whose creation was cut short: GRDB's migrator creates its
    /// `grdb_migrations` table in a transaction of its own before the first migration (which sets the
    /// application id and creates every table), so a kill between the two leaves that empty table and
    /// nothing else. Nothing can have been accepted into such a file, and refusing it would leave the app
    /// unable to start for good; the migrations finish creating it.
    static func creationInterrupted(_ database: Database, applicationId: Int32) throws -> Bool {
        guard applicationId == 0 else { return false }
        // SQLite's own objects (the primary key's autoindex) do not count.
        let names = try String.fetchAll(database, sql: "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
        guard names == ["grdb_migrations"] else { return false }
        return try Int.fetchOne(database, sql: "SELECT COUNT(*) FROM grdb_migrations") == 0
    }

    /// Checks an existing database through a read-only connection, writing nothing to it.
    static func checkExisting(at path: String) throws(StoreError) {
        var grdb = Configuration()
        grdb.readonly = true
        grdb.label = "watchpair.store.check"
        do {
            let queue = try DatabaseQueue(path: path, configuration: grdb)
            defer { try? queue.close() }
            try queue.read { database in
                let problems = try String.fetchAll(database, sql: "PRAGMA quick_check(5)")
                guard problems == ["ok"] else {
                    throw StoreError(.corrupt, "integrity check failed: \(problems.joined(separator: "; "))", path: path)
                }
                let applicationId = try Int32.fetchOne(database, sql: "PRAGMA application_id") ?? 0
                let objects = try Int.fetchOne(database, sql: "SELECT COUNT(*) FROM sqlite_master") ?? 0
                if applicationId != StoreSchema.applicationId, applicationId != 0 || objects > 0,
                    try !creationInterrupted(database, applicationId: applicationId)
                {
                    throw StoreError(.cannotOpen, "the file is not a WatchPair store (application_id \(applicationId))", path: path)
                }
                if try StoreSchema.migrator.hasBeenSuperseded(database) {
                    throw StoreError(.cannotOpen, "the store was written by a newer WatchPair (unknown schema)", path: path)
                }
            }
        } catch {
            throw StoreError(error, attempting: "checking the existing database", path: path, duringOpen: true)
        }
    }
}
