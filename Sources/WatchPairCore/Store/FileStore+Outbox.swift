import Foundation
import GRDB
import WatchPairWire

// Sender side: the file queue. Rows in `file_outbox`, bytes in the spool (FileSpool.swift).
extension FileStore {
    /// Accepts the file at `source` for transfer: copies it into the spool (fsynced), then records it with
    /// the next file seq in one durable transaction. When this returns the transfer survives `kill -9` and
    /// power loss, and the app may delete its own file.
    ///
    /// The copy runs off the cooperative thread pool (a file may be large). The receiver will see
    /// `source`'s last path component as the name.
    ///
    /// - Throws: `.unreadableFile` (7008) naming `source` when it is missing, unreadable or not a regular
    ///   file; `.outboxFull` (7015) when `fileOutboxLimit` files are outstanding or the copy would pass
    ///   `fileSpoolLimit` bytes; `.diskFull` (7015) when the disk fills during the copy or the commit. In
    ///   every failure nothing is stored and nothing is left in the spool; files accepted before are untouched.
    public func enqueueFile(
        transferId: UUID = UUID(), source: String, metadata: EncodedDictionary?
    ) async throws(StoreError) -> OutgoingFile {
        let fileName = URL(fileURLWithPath: source).lastPathComponent
        guard FileName.isValid(fileName) else {
            throw StoreError(.unreadableFile, "\(source) does not name a file", path: source)
        }
        let limits = (count: configuration.fileOutboxLimit, bytes: configuration.fileSpoolLimit)
        // Checked before copying too, so a full queue costs no copy; the transaction checks again.
        let held = try await database.read("counting outstanding files") { try Self.outstandingFileTotals($0) }
        let announced = (try? FileManager.default.attributesOfItem(atPath: source)[.size] as? UInt64) ?? 0
        try Self.checkFileLimits(held: held, adding: announced, limits: limits, path: path)

        let spool = self.spool
        let copied = try await offload { () throws(StoreError) in try spool.copyIn(from: source, as: transferId) }
        let path = self.path
        let createdAt = Date()
        do {
            return try await database.write("accepting a file transfer") { database, lengths in
                try Self.checkFileLimits(held: try Self.outstandingFileTotals(database), adding: copied.size, limits: limits, path: path)
                let seq = UInt64(try StoreSchema.metaInteger(database, StoreSchema.Key.lastFileSeq, path: path)) + 1
                try database.cachedStatement(sql: """
                    INSERT INTO file_outbox (seq, transfer_id, file_name, size, checksum, metadata, created_at, outcome)
                    VALUES (?, ?, ?, ?, ?, ?, ?, 0)
                    """).execute(arguments: [
                        Int64(seq), StoreColumns.blob(transferId), fileName, Int64(copied.size), Int64(copied.checksum),
                        metadata.map { Data($0.bytes) }, StoreColumns.real(createdAt),
                    ])
                try StoreSchema.setMeta(database, StoreSchema.Key.lastFileSeq, Int64(seq))
                lengths.outstandingFiles += 1
                return OutgoingFile(
                    seq: seq, transferId: transferId, fileName: fileName, size: copied.size, checksum: copied.checksum,
                    metadata: metadata, createdAt: createdAt, spoolPath: spool.outgoingPath(transferId), outcome: nil)
            }
        } catch {
            spool.remove(spool.outgoingPath(transferId))
            throw error
        }
    }

    /// Outstanding files with seq > `after`, in seq order, at most `limit`; their metadata strictly decoded.
    public func outstandingFiles(after seq: UInt64 = 0, limit: Int) async throws(StoreError) -> [OutgoingFile] {
        try await outgoingFiles(where: "outcome = 0", after: seq, limit: limit)
    }

    /// The number of outstanding files as of the last commit.
    public var outstandingFileCount: Int { queueLengths.outstandingFiles }

    /// Files the receiver has ended whose didFinish the app has not been told of, in seq order, at most
    /// `limit`. They survive restarts until `markFilesFinishedReported`.
    public func unreportedFinishedFiles(after seq: UInt64 = 0, limit: Int) async throws(StoreError) -> [OutgoingFile] {
        try await outgoingFiles(where: "outcome <> 0", after: seq, limit: limit)
    }

    /// Bytes `offset ..< offset + count` of an outgoing file's copy (fewer at its end), read off the
    /// cooperative thread pool.
    public func readChunk(of file: OutgoingFile, at offset: UInt64, count: Int) async throws(StoreError) -> Data {
        try await readChunks(of: file, [FileChunkRange(offset: offset, count: count)])[0]
    }

    /// Several ranges of an outgoing file's copy, each its own `Data` (shorter at the file's end), with one
    /// open and one hop off the cooperative thread pool.
    func readChunks(of file: OutgoingFile, _ ranges: [FileChunkRange]) async throws(StoreError) -> [Data] {
        let spool = self.spool
        return try await offload { () throws(StoreError) in try spool.readChunks(file.spoolPath, ranges) }
    }

    /// Cancels an outstanding file: deletes its row and its copy. Returns it, or nil when it is not
    /// outstanding (unknown, finished or already cancelled). Its seq is not reused.
    public func cancelFile(transferId: UUID) async throws(StoreError) -> OutgoingFile? {
        let file = try await deleteOutgoing(transferId, where: "outcome = 0", "cancelling a file transfer")
        if let file { spool.remove(file.spoolPath) }
        return file
    }

    /// Records how the receiver ended outstanding file `seq` and deletes the copy, whose bytes are no longer
    /// needed. Returns the file, or nil when `seq` is not outstanding (idempotent).
    ///
    /// `.relaxed` commit, like a userInfo acknowledgement: the receiver passed the seq durably before it
    /// said so, so if a power failure loses this commit the file is outstanding again, its offer is answered
    /// with the same end at once (no chunk is read: the copy may be gone), and its didFinish is reported once
    /// more. Nothing reaches the receiving app twice.
    public func finishFile(seq: UInt64, outcome: FileOutcome) async throws(StoreError) -> OutgoingFile? {
        let path = self.path
        let spool = self.spool
        let file = try await database.write("finishing a file transfer", sync: .relaxed, counting: { database, lengths -> OutgoingFile? in
            guard var file = try Self.outgoingFiles(database, where: "outcome = 0 AND seq = ?", [Int64(seq)], path: path, spool: spool).first
            else { return nil }
            try database.cachedStatement(sql: "UPDATE file_outbox SET outcome = ? WHERE seq = ?")
                .execute(arguments: [outcome.rawValue, Int64(seq)])
            lengths.outstandingFiles -= 1
            file.outcome = outcome
            return file
        })
        if let file { spool.remove(file.spoolPath) }
        return file
    }

    /// The app has been told that these files finished: forget them. Ids not finished are ignored.
    public func markFilesFinishedReported(_ transferIds: [UUID]) async throws(StoreError) {
        guard !transferIds.isEmpty else { return }
        try await database.write("forgetting reported file transfers", sync: .relaxed) { database in
            try Self.forgetReported(transferIds, database)
        }
    }

    /// Deletes the ended file-outbox rows of `transferIds`.
    static func forgetReported(_ transferIds: [UUID], _ database: Database) throws {
        guard !transferIds.isEmpty else { return }
        let statement = try database.cachedStatement(sql: "DELETE FROM file_outbox WHERE transfer_id = ? AND outcome <> 0")
        for transferId in transferIds { try statement.execute(arguments: [StoreColumns.blob(transferId)]) }
    }

    private func outgoingFiles(where condition: String, after seq: UInt64, limit: Int) async throws(StoreError) -> [OutgoingFile] {
        guard limit > 0, seq < UInt64(Int64.max) else { return [] }
        let path = self.path
        let spool = self.spool
        return try await database.read("reading file transfers") { database in
            try Self.outgoingFiles(
                database, where: "\(condition) AND seq > ? ORDER BY seq LIMIT ?", [Int64(seq), limit], path: path, spool: spool)
        }
    }

    private func deleteOutgoing(_ transferId: UUID, where condition: String, _ what: String) async throws(StoreError) -> OutgoingFile? {
        let path = self.path
        let spool = self.spool
        return try await database.write(what) { database, lengths -> OutgoingFile? in
            let id = StoreColumns.blob(transferId)
            guard let file = try Self.outgoingFiles(database, where: "\(condition) AND transfer_id = ?", [id], path: path, spool: spool).first
            else { return nil }
            try database.cachedStatement(sql: "DELETE FROM file_outbox WHERE transfer_id = ?").execute(arguments: [id])
            if file.outcome == nil { lengths.outstandingFiles -= 1 }
            return file
        }
    }

    static func outgoingFiles(
        _ database: Database, where condition: String, _ arguments: StatementArguments, path: String, spool: FileSpool
    ) throws -> [OutgoingFile] {
        try Row.decodeAll(
            database,
            sql: "SELECT seq, transfer_id, file_name, size, checksum, metadata, created_at, outcome FROM file_outbox WHERE \(condition)",
            arguments: arguments
        ) { row in
            let transferId = try row.decode(1, "file transfer id", path: path, StoreColumns.uuid)
            let outcome = try row.decode(7, "file outcome", path: path) { Int64.fromDatabaseValue($0) }
            return OutgoingFile(
                seq: try row.decode(0, "file seq", path: path, StoreColumns.unsigned),
                transferId: transferId,
                fileName: try row.decode(2, "file name", path: path) { String.fromDatabaseValue($0) },
                size: try row.decode(3, "file size", path: path, StoreColumns.unsigned),
                checksum: try row.decode(4, "file checksum", path: path) { Int64.fromDatabaseValue($0).flatMap(UInt32.init(exactly:)) },
                metadata: try StoreColumns.optionalMetadata(row[5], path: path),
                createdAt: try row.decode(6, "file date", path: path, StoreColumns.date),
                spoolPath: spool.outgoingPath(transferId),
                outcome: FileOutcome(rawValue: outcome))
        }
    }

    /// Count and bytes of the outstanding files.
    static func outstandingFileTotals(_ database: Database) throws -> (count: Int, bytes: UInt64) {
        let row = try Row.fetchOne(database.cachedStatement(sql: "SELECT COUNT(*), COALESCE(SUM(size), 0) FROM file_outbox WHERE outcome = 0"))
        return (row?[0] ?? 0, UInt64(clamping: row?[1] ?? Int64(0)))
    }

    static func checkFileLimits(
        held: (count: Int, bytes: UInt64), adding size: UInt64, limits: (count: Int, bytes: UInt64), path: String
    ) throws(StoreError) {
        guard held.count < limits.count else {
            throw StoreError(.outboxFull, "\(held.count) file transfers are outstanding (limit \(limits.count))", path: path)
        }
        guard held.bytes.addingReportingOverflow(size).partialValue <= limits.bytes, size <= limits.bytes else {
            throw StoreError(
                .outboxFull, "outstanding files hold \(held.bytes) bytes; \(size) more would pass the limit of \(limits.bytes)",
                path: path)
        }
    }
}

extension StoreColumns {
    /// A metadata BLOB: NULL for none, else strictly decoded (a damaged row is `.corrupt`).
    static func optionalMetadata(_ value: DatabaseValue, path: String) throws(StoreError) -> EncodedDictionary? {
        guard !value.isNull else { return nil }
        guard let metadata = validatedPayload(value) else { throw StoreError.undecodable("file metadata", path: path) }
        return metadata
    }
}

/// Runs blocking file work on a thread of its own, so a large copy or a synced write never holds one of
/// the few threads of the cooperative pool.
func offload<T: Sendable>(_ work: @escaping @Sendable () throws(StoreError) -> T) async throws(StoreError) -> T {
    let result: Result<T, StoreError> = await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(returning: Result { () throws(StoreError) in try work() })
        }
    }
    return try result.get()
}
