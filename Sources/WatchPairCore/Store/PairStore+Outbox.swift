import Foundation
import GRDB
import WatchPairWire

// Sender side: the userInfo outbox.
extension PairStore {
    /// Durably appends one transfer and returns it with its sequence number.
    ///
    /// Seqs are strictly increasing per store and never reused, even after cancel or delete. Group commit:
    /// concurrent callers are batched into one write transaction (one fsync, at most `maxBatchSize`
    /// requests); while a commit runs, new calls queue, and everything queued is written together next.
    /// Returns only after the commit is durable. Throws `.outboxFull` when `outboxLimit` transfers are
    /// outstanding (nothing is stored for that call); a `transferId` already in the outbox throws
    /// `.ioFailure` (SQLite code 19, constraint) without affecting the rest of the batch; so does a payload
    /// nested deeper than `PlistCodec.maxNestingDepth` (it could never be read back).
    public func enqueue(transferId: UUID, payload: PlistDictionary) async throws(StoreError) -> OutboxTransfer {
        try await enqueue(transferId: transferId, payload: StoreColumns.encoded(payload, path: path))
    }

    /// Durably appends one transfer whose payload is already encoded (as `PayloadLimits.encodeUserInfo`
    /// returns it): the store keeps exactly these bytes. Otherwise as `enqueue(transferId:payload:)`.
    /// `complication`: the transfer goes as the current complication info (`isCurrentComplicationInfo`).
    public func enqueue(
        transferId: UUID, payload: EncodedDictionary, complication: Bool = false
    ) async throws(StoreError) -> OutboxTransfer {
        try await submitEnqueue(transferId: transferId, payload: payload, complication: complication)
    }

    /// Durably appends one transfer with an id the store assigns: a UUID that sorts after every id this
    /// store assigned before it in this process (version 7, ``TransferIdGenerator``), so the outbox's
    /// unique index grows at its end instead of at a random leaf and the cost of a transfer does not grow
    /// with the backlog (BENCHMARKS.md, "Cost growth"). What the engine's `transferUserInfo` uses.
    /// Otherwise as `enqueue(transferId:payload:complication:)`.
    public func enqueue(payload: EncodedDictionary, complication: Bool = false) async throws(StoreError) -> OutboxTransfer {
        try await submitEnqueue(transferId: nil, payload: payload, complication: complication)
    }

    private func submitEnqueue(
        transferId: UUID?, payload: EncodedDictionary, complication: Bool
    ) async throws(StoreError) -> OutboxTransfer {
        let request = BatchRequest.enqueue(transferId: transferId, payload: payload, createdAt: Date(), complication: complication)
        return try await submit(request, answer: \.enqueued)
    }

    /// The next time-ordered transfer id: the wall clock's millisecond and 62 random bits. Called by the
    /// group commit inside its transaction, in commit order.
    func nextTransferId() -> UUID {
        let milliseconds = UInt64(max(Date().timeIntervalSince1970 * 1000, 0))
        return counters.withLock { $0.transferIds.next(unixMilliseconds: milliseconds, random: UInt64.random(in: .min ... .max)) }
    }

    /// Outstanding (not yet acknowledged, not cancelled) transfers with seq > `after`, in seq order, at most
    /// `limit` (0 or less: none). Each payload is strictly decoded, for the app (a row that does not decode
    /// throws a `.corrupt` error).
    public func outstanding(after seq: UInt64, limit: Int) async throws(StoreError) -> [OutboxTransfer] {
        try await outstanding(after: seq, limit: limit, payload: StoreColumns.validatedPayload)
    }

    /// As `outstanding(after:limit:)`, with each payload the bytes as stored, not decoded: the sender's
    /// page read, which puts them in frames as they are (the receiver validates every frame).
    /// What was just queued comes from the outbox's tail (``StoreTail``), without a read transaction.
    func outstandingToSend(after seq: UInt64, limit: Int) async throws(StoreError) -> [OutboxTransfer] {
        try database.checkOpen()
        if let page = tails.withLock({ $0.outbox.page(after: seq, limit: limit) { !$0.finished } }) {
            return page.map(\.transfer)
        }
        return try await outstanding(after: seq, limit: limit, payload: StoreColumns.storedPayload)
    }

    private func outstanding(
        after seq: UInt64, limit: Int, payload: @escaping @Sendable (DatabaseValue) -> EncodedDictionary?
    ) async throws(StoreError) -> [OutboxTransfer] {
        guard limit > 0, seq < UInt64(Int64.max) else { return [] }
        let path = self.path
        return try await database.read("reading outstanding transfers") { database in
            try Self.outboxTransfers(
                database, path: path,
                sql: "SELECT seq, transfer_id, payload, created_at, complication FROM outbox WHERE finished = 0 AND seq > ? ORDER BY seq LIMIT ?",
                arguments: [Int64(seq), limit], payload: payload)
        }
    }

    /// The number of outstanding transfers.
    public func outstandingCount() async throws(StoreError) -> Int {
        try database.checkOpen()
        return queueLengths.outstanding
    }

    /// Removes an outstanding transfer. Returns false when it is not outstanding (unknown, finished or
    /// cancelled). Its seq is not reused.
    public func cancel(transferId: UUID) async throws(StoreError) -> Bool {
        try await database.write("cancelling a transfer", counting: { database, lengths in
            try database.cachedStatement(sql: "DELETE FROM outbox WHERE transfer_id = ? AND finished = 0")
                .execute(arguments: [StoreColumns.blob(transferId)])
            guard database.changesCount > 0 else { return false }
            lengths.outstanding -= 1
            return true
        }, afterCommit: { cancelled in
            guard cancelled else { return }
            self.tails.withLock { $0.outbox.remove { !$0.finished && $0.transfer.transferId == transferId } }
        })
    }

    /// Marks every outstanding transfer with seq <= `upTo` as finished (one transaction) and returns those
    /// newly finished, in seq order. Idempotent: an acknowledgement already applied returns []. Only seqs and
    /// ids are read: the payloads are neither read nor decoded (didFinish reads them later, validated, through
    /// `unreportedFinished`).
    ///
    /// The commit is `.relaxed` (no fsync of its own): if a power failure loses it, the transfers are
    /// outstanding again and resent, the receiver drops them as duplicates and acknowledges again, and their
    /// didFinish is reported once more. Nothing is lost or delivered twice to the receiving app. It goes to
    /// the writer thread with the queues' other writes (``StoreWriter``): beside an enqueue or a receive it
    /// shares their transaction and its fsync.
    public func acknowledge(upTo seq: UInt64) async throws(StoreError) -> [FinishedTransfer] {
        try await submit(.acknowledge(upTo: seq), answer: \.acknowledged)
    }

    /// Finished transfers whose didFinish has not yet been reported to the app, with seq > `after`, in seq
    /// order, at most `limit`. They survive restarts until `markFinishedReported`.
    ///
    /// Acknowledgements are cumulative, so transfers finish in seq order: a reader that remembers the last
    /// seq it showed sees each newly finished transfer once by reading after it.
    public func unreportedFinished(after seq: UInt64 = 0, limit: Int) async throws(StoreError) -> [OutboxTransfer] {
        guard limit > 0, seq < UInt64(Int64.max) else { return [] }
        try database.checkOpen()
        if let page = tails.withLock({ $0.outbox.page(after: seq, limit: limit, where: \.finished) }) {
            return page.map(\.transfer)
        }
        let path = self.path
        return try await database.read("reading finished transfers") { database in
            try Self.outboxTransfers(
                database, path: path,
                sql: "SELECT seq, transfer_id, payload, created_at, complication FROM outbox WHERE finished = 1 AND seq > ? ORDER BY seq LIMIT ?",
                arguments: [Int64(seq), limit], payload: StoreColumns.validatedPayload)
        }
    }

    /// The app has been told that these transfers finished: forget them (one transaction). Ids that are not
    /// finished (outstanding or unknown) are ignored. `.relaxed` commit: after a power failure a didFinish
    /// may be reported again. With `includingFiles`, finished file transfers with these ids are forgotten
    /// in the same transaction (``FileStore/markFilesFinishedReported(_:)``): a `receive` client's `ack`
    /// names both kinds in one list, and one transaction costs one trip to the writer, not two. Batched
    /// with the queues' other writes, as `acknowledge`.
    public func markFinishedReported(_ transferIds: [UUID], includingFiles: Bool = false) async throws(StoreError) {
        guard !transferIds.isEmpty else { return }
        try await submit(.forgetReported(transferIds, includingFiles: includingFiles), answer: \.forgotten)
    }

    /// Deletes the finished outbox rows of `transferIds`; returns the ids that matched none.
    static func forgetReported(_ transferIds: [UUID], _ database: Database) throws -> [UUID] {
        let statement = try database.cachedStatement(sql: "DELETE FROM outbox WHERE transfer_id = ? AND finished = 1")
        return try transferIds.filter { transferId in
            try statement.execute(arguments: [StoreColumns.blob(transferId)])
            return database.changesCount == 0
        }
    }

    static func outboxTransfers(
        _ database: Database, path: String, sql: String, arguments: StatementArguments,
        payload: (DatabaseValue) -> EncodedDictionary?
    ) throws -> [OutboxTransfer] {
        try Row.decodeAll(database, sql: sql, arguments: arguments) { row in
            OutboxTransfer(
                seq: try row.decode(0, "outbox seq", path: path, StoreColumns.unsigned),
                transferId: try row.decode(1, "outbox transfer id", path: path, StoreColumns.uuid),
                payload: try row.decode(2, "outbox payload", path: path, payload),
                createdAt: try row.decode(3, "outbox date", path: path, StoreColumns.date),
                isCurrentComplicationInfo: try row.decode(4, "outbox complication flag", path: path, StoreColumns.flag))
        }
    }
}
