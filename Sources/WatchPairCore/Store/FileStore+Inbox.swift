import Foundation
import GRDB
import WatchPairWire

// Receiver side: partial and received files. Rows in `file_inbox` and `file_peer`, bytes in the spool.
extension FileStore {
    /// The highest file seq passed (received, corrupt or cancelled) from `peerStoreId`; 0 when none.
    public func lastPassedFileSeq(from peerStoreId: UUID) async throws(StoreError) -> UInt64 {
        let path = self.path
        return try await database.read("reading the file resume point") { database in
            try Self.passed(database, peerStoreId, path: path)?.seq ?? 0
        }
    }

    /// What this side holds of an offered file, creating an empty one for a new offer (one transaction).
    ///
    /// A seq at or below the last passed one is `.passed` (with the outcome recorded for that last seq;
    /// an older one can only have been received). A file already open is returned with its durable offset:
    /// the sender resumes there. Opening a file drops the unfinished files of the same peer store with a
    /// lower seq: files come in order, so the sender has cancelled them.
    ///
    /// `.relaxed` commit: nothing is acknowledged beyond offset 0 before the first sync of the file's bytes,
    /// whose durable commit makes this one durable too (the WAL is sequential). If a power failure loses it
    /// first, the sender, holding an acknowledgement of 0, offers the file again and it opens afresh; the
    /// partial rows it dropped are of seqs the sender cancelled, never offered again, and the next open drops
    /// them once more.
    public func openIncomingFile(from peerStoreId: UUID, offer: FileOffer) async throws(StoreError) -> IncomingFileState {
        let path = self.path
        let spool = self.spool
        let peer = StoreColumns.blob(peerStoreId)
        let (state, dropped) = try await database.write("opening a received file", sync: .relaxed) { database -> (IncomingFileState, [String]) in
            if let passed = try Self.passed(database, peerStoreId, path: path), offer.seq <= passed.seq {
                return (.passed(offer.seq == passed.seq ? passed.outcome : .received), [])
            }
            if let held = try Self.incomingFiles(
                database, where: "transfer_id = ? AND peer_store_id = ?", [StoreColumns.blob(offer.transferId), peer],
                path: path, spool: spool
            ).first {
                return (.open(held), [])
            }
            let stale = try Self.incomingFiles(
                database, where: "peer_store_id = ? AND seq < ? AND complete = 0", [peer, Int64(offer.seq)], path: path, spool: spool)
            try database.cachedStatement(sql: "DELETE FROM file_inbox WHERE peer_store_id = ? AND seq < ? AND complete = 0")
                .execute(arguments: [peer, Int64(offer.seq)])
            try database.cachedStatement(sql: """
                INSERT INTO file_inbox (transfer_id, peer_store_id, seq, file_name, size, checksum, metadata,
                                        durable_offset, running_crc, complete, received_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, 0, 0, 0, ?)
                """).execute(arguments: [
                    StoreColumns.blob(offer.transferId), peer, Int64(offer.seq), offer.fileName,
                    StoreColumns.integer(offer.size), Int64(offer.checksum), offer.metadata.map { Data($0.bytes) },
                    StoreColumns.real(Date()),
                ])
            var held = offer
            held.after = 0  // a property of the link that offered it, not of the file: not stored
            let file = IncomingFile(
                peerStoreId: peerStoreId, offer: held, durableOffset: 0, runningChecksum: 0, isComplete: false,
                spoolPath: spool.incomingPath(offer.transferId))
            return (.open(file), stale.map(\.spoolPath))
        }
        dropped.forEach(spool.remove)
        return state
    }

    /// Appends `chunks` to `file` at its durable offset and makes them durable: the bytes are written and
    /// fsynced (off the cooperative pool), then the new offset and checksum commit. Returns the file with
    /// its new durable offset, the one to acknowledge.
    ///
    /// A crash between the two leaves bytes past the recorded offset; the next write cuts them off, so the
    /// recorded offset is always the truth. Throws `.ioFailure` when the chunks would pass the file's size
    /// (the caller checks offsets first), `.diskFull` (7015) when the disk is full: nothing is recorded then.
    public func appendIncoming(_ file: IncomingFile, chunks: [Data]) async throws(StoreError) -> IncomingFile {
        let added = chunks.reduce(UInt64(0)) { $0 + UInt64($1.count) }
        guard added <= file.offer.size - min(file.durableOffset, file.offer.size) else {
            throw StoreError(.ioFailure, "chunks past the end of file \(file.offer.seq) (size \(file.offer.size))", path: file.spoolPath)
        }
        let spool = self.spool
        try await offload { () throws(StoreError) in try spool.writeChunks(chunks, to: file.spoolPath, at: file.durableOffset) }
        let checksum = chunks.reduce(file.runningChecksum) { CRC32C.update($0, with: $1) }
        return try await record(file, durable: file.durableOffset + added, checksum: checksum, completing: false).file
    }

    /// Records that `file` durably holds its first `durable` bytes, whose CRC-32C is `checksum` (the caller
    /// fsynced them, e.g. with ``FileSpoolWriter/sync()``). When that is the whole file it is verified in the
    /// same transaction, as ``completeIncoming(_:)`` does, and the outcome returned: one commit for a file's
    /// last bytes and its end. Returns the file with its new durable offset, the one to acknowledge.
    ///
    /// Throws `.ioFailure` when the row is not at `file`'s durable offset any more or `durable` passes the
    /// file's size.
    func recordIncoming(_ file: IncomingFile, durable: UInt64, checksum: UInt32) async throws(StoreError) -> (file: IncomingFile, outcome: FileOutcome?) {
        guard durable >= file.durableOffset, durable <= file.offer.size else {
            throw StoreError(.ioFailure, "file \(file.offer.seq) cannot hold \(durable) of \(file.offer.size) bytes", path: file.spoolPath)
        }
        return try await record(file, durable: durable, checksum: checksum, completing: durable == file.offer.size)
    }

    /// Ends a file whose every byte is durable: verifies the checksum and passes its seq, in one
    /// transaction. `.received`: the file waits for the app (`receivedFiles`). `.corrupt`: the file is
    /// deleted. Throws `.ioFailure` when the file is not whole.
    public func completeIncoming(_ file: IncomingFile) async throws(StoreError) -> FileOutcome {
        guard file.durableOffset == file.offer.size else {
            throw StoreError(.ioFailure, "file \(file.offer.seq) holds \(file.durableOffset) of \(file.offer.size) bytes", path: file.spoolPath)
        }
        return try await record(file, durable: file.durableOffset, checksum: file.runningChecksum, completing: true).outcome ?? .corrupt
    }

    /// One transaction: the new durable offset and checksum (the row must still be at `file`'s offset),
    /// then, when `completing`, the verdict (received: kept for the app; corrupt: row and file deleted) and
    /// the seq passed.
    private func record(
        _ file: IncomingFile, durable: UInt64, checksum: UInt32, completing: Bool
    ) async throws(StoreError) -> (file: IncomingFile, outcome: FileOutcome?) {
        var next = file
        next.durableOffset = durable
        next.runningChecksum = checksum
        let updated = next
        let outcome: FileOutcome? = completing ? (checksum == file.offer.checksum ? .received : .corrupt) : nil
        try await database.write(completing ? "completing a received file" : "recording a received file's progress") { database in
            let id = StoreColumns.blob(file.offer.transferId)
            try database.cachedStatement(sql: """
                UPDATE file_inbox SET durable_offset = ?, running_crc = ?, complete = ? WHERE transfer_id = ? AND durable_offset = ?
                """).execute(arguments: [
                    StoreColumns.integer(durable), Int64(checksum), outcome == .received ? 1 : 0, id,
                    StoreColumns.integer(file.durableOffset),
                ])
            guard database.changesCount == 1 else {
                throw StoreError(.ioFailure, "received file \(file.offer.seq) is not at offset \(file.durableOffset)", path: file.spoolPath)
            }
            guard let outcome else { return }
            if outcome == .corrupt {
                try database.cachedStatement(sql: "DELETE FROM file_inbox WHERE transfer_id = ?").execute(arguments: [id])
            }
            try Self.pass(database, file.peerStoreId, seq: file.offer.seq, outcome)
        }
        if outcome == .corrupt { spool.remove(file.spoolPath) }
        return (updated, outcome)
    }

    /// The sender cancelled file `seq`: drops what this side holds of it and passes the seq (one
    /// transaction). A seq already passed changes nothing. Returns whether a partial file was dropped.
    @discardableResult
    public func cancelIncoming(from peerStoreId: UUID, seq: UInt64) async throws(StoreError) -> Bool {
        let path = self.path
        let spool = self.spool
        let peer = StoreColumns.blob(peerStoreId)
        let dropped = try await database.write("cancelling a received file") { database -> [String] in
            if let passed = try Self.passed(database, peerStoreId, path: path), seq <= passed.seq { return [] }
            let held = try Self.incomingFiles(
                database, where: "peer_store_id = ? AND seq = ? AND complete = 0", [peer, Int64(seq)], path: path, spool: spool)
            try database.cachedStatement(sql: "DELETE FROM file_inbox WHERE peer_store_id = ? AND seq = ? AND complete = 0")
                .execute(arguments: [peer, Int64(seq)])
            try Self.pass(database, peerStoreId, seq: seq, .cancelled)
            return held.map(\.spoolPath)
        }
        dropped.forEach(spool.remove)
        return !dropped.isEmpty
    }

    /// Received files waiting for the app, oldest first, at most `limit`.
    public func receivedFiles(limit: Int) async throws(StoreError) -> [IncomingFile] {
        guard limit > 0 else { return [] }
        let path = self.path
        let spool = self.spool
        return try await database.read("reading received files") { database in
            try Self.incomingFiles(database, where: "complete = 1 ORDER BY received_at, seq LIMIT ?", [limit], path: path, spool: spool)
        }
    }

    /// The app is done with a received file: forget it and delete it. Unknown ids are ignored.
    public func consumeReceivedFile(transferId: UUID) async throws(StoreError) {
        let id = StoreColumns.blob(transferId)
        let removed = try await database.write("removing a delivered file") { database -> Bool in
            try database.cachedStatement(sql: "DELETE FROM file_inbox WHERE transfer_id = ? AND complete = 1").execute(arguments: [id])
            return database.changesCount > 0
        }
        if removed { spool.remove(spool.incomingPath(transferId)) }
    }

    /// Removes spool files without a row: a crash between copying and committing, or between deleting a
    /// row and its file, leaves one. Run at open, before anything else uses the store.
    func sweepSpool() async throws(StoreError) {
        let spool = self.spool
        let (outgoing, incoming) = try await database.read("listing spooled files") { database in
            (
                Set(try Data.fetchAll(database, sql: "SELECT transfer_id FROM file_outbox WHERE outcome = 0").compactMap { StoreColumns.uuid($0.databaseValue) }),
                Set(try Data.fetchAll(database, sql: "SELECT transfer_id FROM file_inbox").compactMap { StoreColumns.uuid($0.databaseValue) })
            )
        }
        for (folder, kept, path) in [(spool.outgoing, outgoing, spool.outgoingPath), (spool.incoming, incoming, spool.incomingPath)] {
            let (ids, strays) = spool.contents(of: folder)
            strays.forEach(spool.remove)
            for id in ids where !kept.contains(id) { spool.remove(path(id)) }
        }
    }

    /// The last passed seq of `peerStoreId` and its outcome, or nil when none.
    static func passed(_ database: Database, _ peerStoreId: UUID, path: String) throws -> (seq: UInt64, outcome: FileOutcome)? {
        guard let row = try Row.fetchOne(
            database.cachedStatement(sql: "SELECT last_seq, last_outcome FROM file_peer WHERE store_id = ?"),
            arguments: [StoreColumns.blob(peerStoreId)])
        else { return nil }
        return (
            try row.decode(0, "file peer seq", path: path, StoreColumns.unsigned),
            try row.decode(1, "file peer outcome", path: path) { Int64.fromDatabaseValue($0).flatMap(FileOutcome.init(rawValue:)) }
        )
    }

    static func pass(_ database: Database, _ peerStoreId: UUID, seq: UInt64, _ outcome: FileOutcome) throws {
        try database.cachedStatement(sql: """
            INSERT INTO file_peer (store_id, last_seq, last_outcome) VALUES (?, ?, ?)
            ON CONFLICT(store_id) DO UPDATE SET last_seq = excluded.last_seq, last_outcome = excluded.last_outcome
            WHERE excluded.last_seq > file_peer.last_seq
            """).execute(arguments: [StoreColumns.blob(peerStoreId), StoreColumns.integer(seq), outcome.rawValue])
    }

    static func incomingFiles(
        _ database: Database, where condition: String, _ arguments: StatementArguments, path: String, spool: FileSpool
    ) throws -> [IncomingFile] {
        try Row.decodeAll(
            database,
            sql: """
                SELECT transfer_id, peer_store_id, seq, file_name, size, checksum, metadata, durable_offset, running_crc, complete
                FROM file_inbox WHERE \(condition)
                """,
            arguments: arguments
        ) { row in
            let transferId = try row.decode(0, "received file id", path: path, StoreColumns.uuid)
            let checksum: (DatabaseValue) -> UInt32? = { Int64.fromDatabaseValue($0).flatMap(UInt32.init(exactly:)) }
            let offer = FileOffer(
                seq: try row.decode(2, "received file seq", path: path, StoreColumns.unsigned), after: 0,
                transferId: transferId,
                fileName: try row.decode(3, "received file name", path: path) { String.fromDatabaseValue($0) },
                size: try row.decode(4, "received file size", path: path, StoreColumns.unsigned),
                checksum: try row.decode(5, "received file checksum", path: path, checksum),
                metadata: try StoreColumns.optionalMetadata(row[6], path: path))
            return IncomingFile(
                peerStoreId: try row.decode(1, "received file peer", path: path, StoreColumns.uuid),
                offer: offer,
                durableOffset: try row.decode(7, "received file offset", path: path, StoreColumns.unsigned),
                runningChecksum: try row.decode(8, "received file checksum", path: path, checksum),
                isComplete: try row.decode(9, "received file state", path: path) { Int64.fromDatabaseValue($0) } == 1,
                spoolPath: spool.incomingPath(transferId))
        }
    }
}
