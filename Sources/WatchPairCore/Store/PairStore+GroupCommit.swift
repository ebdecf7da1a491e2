import Foundation
import GRDB
import WatchPairWire

/// One userInfo write waiting for the writer's next commit (``StoreWriter``).
enum BatchRequest: Sendable {
    /// Append one transfer to the outbox; the payload was encoded where it entered, outside the transaction.
    /// `transferId` nil: the transaction assigns the next time-ordered id (``TransferIdGenerator``).
    /// `complication`: sent as the current complication info.
    case enqueue(transferId: UUID?, payload: EncodedDictionary, createdAt: Date, complication: Bool)
    /// Store transfers received from a peer store, with the payload bytes their frames carried;
    /// `complication` holds the seqs that came as complication transfers.
    case receive(
        peerStoreId: UUID, transfers: [(seq: UInt64, transferId: UUID, payload: EncodedDictionary)], complication: Set<UInt64>,
        queues: [UInt64: InboxQueue])
    /// Delete the inbox rows of one queue that its reader has taken, up to a delivery id.
    case consume(upTo: UInt64, queue: InboxQueue)
    /// The peer acknowledged every outstanding transfer up to a seq: mark them finished.
    case acknowledge(upTo: UInt64)
    /// The app has been told these transfers finished: forget them (and ended file transfers with these ids).
    case forgetReported([UUID], includingFiles: Bool)

    /// Bookkeeping that needs no fsync of its own (``StoreDatabase/CommitSync/relaxed``): a batch of only
    /// these commits relaxed; in a batch with any other request it rides that request's fsync.
    var isRelaxed: Bool {
        switch self {
        case .acknowledge, .forgetReported: true
        case .enqueue, .receive, .consume: false
        }
    }
}

/// The outcome of one `BatchRequest`.
enum BatchResponse: Sendable {
    case enqueued(OutboxTransfer)
    case received(InboxReceipt)
    case consumed
    case acknowledged([FinishedTransfer])
    case forgotten

    // One accessor per case, for ``PairStore/submit(_:answer:)``: nil for any other case.
    var enqueued: OutboxTransfer? { if case .enqueued(let transfer) = self { transfer } else { nil } }
    var received: InboxReceipt? { if case .received(let receipt) = self { receipt } else { nil } }
    var consumed: Void? { if case .consumed = self { () } else { nil } }
    var acknowledged: [FinishedTransfer]? { if case .acknowledged(let finished) = self { finished } else { nil } }
    var forgotten: Void? { if case .forgotten = self { () } else { nil } }
}

extension PairStore {
    /// Queues `request` for the writer's next commit and returns its own outcome, as the case `answer`
    /// reads: the only one a request of that kind is answered with.
    func submit<Value>(_ request: BatchRequest, answer: KeyPath<BatchResponse, Value?>) async throws(StoreError) -> Value {
        let response = try await writer.submit(request) { batch in self.commitBatch(batch) }.get()
        guard let value = response[keyPath: answer] else {
            preconditionFailure("the store writer answered a request with a response of another kind")
        }
        return value
    }

    /// Writes a whole batch in one transaction, on the writer's thread. A request that breaks a limit fails
    /// alone; an SQLite failure fails every request of the batch (rolled back).
    func commitBatch(_ requests: [BatchRequest]) -> [Result<BatchResponse, StoreError>] {
        let outboxLimit = configuration.outboxLimit
        let inboxLimit = configuration.inboxLimit
        let path = self.path
        let now = Date()
        let sync: StoreDatabase.CommitSync = requests.allSatisfy(\.isRelaxed) ? .relaxed : .durable
        do {
            let (outcomes, peerChanges) = try database.writeNow("committing \(requests.count) queued writes", sync: sync, counting: { database, lengths in
                var batch = try BatchTransaction(database: database, path: path, lengths: lengths)
                let outcomes = try requests.map { request -> Result<BatchResponse, StoreError> in
                    switch request {
                    case .enqueue(let transferId, let payload, let createdAt, let complication):
                        // Assigned here, in commit order: ids grow with seqs, every insert appends to the index.
                        return try batch.enqueue(
                            transferId: transferId ?? self.nextTransferId(), payload: payload, createdAt: createdAt,
                            complication: complication, limit: outboxLimit
                        ).map(BatchResponse.enqueued)
                    case .receive(let peerStoreId, let transfers, let complication, let queues):
                        return .success(.received(try batch.receive(
                            from: peerStoreId, transfers, complication: complication, queues: queues, receivedAt: now,
                            limit: inboxLimit)))
                    case .consume(let upTo, let queue):
                        try batch.consume(upTo: upTo, queue: queue)
                        return .success(.consumed)
                    case .acknowledge(let upTo):
                        return .success(.acknowledged(try batch.acknowledge(upTo: upTo)))
                    case .forgetReported(let transferIds, let includingFiles):
                        let unmatched = try Self.forgetReported(transferIds, database)
                        if includingFiles { try FileStore.forgetReported(unmatched, database) }
                        return .success(.forgotten)
                    }
                }
                try batch.finish()
                if batch.seqChanged { self.noteAssigned(upTo: UInt64(batch.lastSeq)) }
                lengths.outstanding = batch.outstanding
                lengths.inbox = batch.inboxCount
                return (outcomes, batch.peerChanges)
            }, afterCommit: { outcomes, _ in
                self.tails.withLock { tails in
                    for (request, outcome) in zip(requests, outcomes) {
                        switch (request, outcome) {
                        case (_, .success(.enqueued(let transfer))): tails.outbox.append([OutboxTailRow(transfer: transfer)])
                        case (_, .success(.received(let receipt))): tails.inbox.append(receipt.accepted)
                        case (.consume(let upTo, let queue), .success(.consumed)):
                            tails.inbox.remove { $0.deliveryId <= upTo && $0.queue == queue }
                        case (.acknowledge(let upTo), .success(.acknowledged(let finished))) where !finished.isEmpty:
                            tails.outbox.update(where: { !$0.finished && $0.position <= upTo }) { $0.finished = true }
                        case (.forgetReported(let transferIds, _), .success(.forgotten)):
                            let reported = Set(transferIds)
                            tails.outbox.remove { $0.finished && reported.contains($0.transfer.transferId) }
                        default: break
                        }
                    }
                }
            })
            var enqueued = 0
            var received = 0
            for case .success(let response) in outcomes {
                switch response {
                case .enqueued: enqueued += 1
                case .received(let receipt): received += receipt.accepted.count
                case .consumed, .acknowledged, .forgotten: break
                }
            }
            counters.withLock {
                $0.enqueued += enqueued
                $0.received += received
            }
            for peer in peerChanges { logger.info("now linked to peer store", metadata: ["peerStoreId": "\(peer)"]) }
            return outcomes
        } catch {
            return Array(repeating: .failure(error), count: requests.count)
        }
    }
}

/// The state one group-commit transaction reads once and writes back once.
private struct BatchTransaction {
    let database: Database
    let path: String
    var lastSeq: Int64
    /// Queue lengths as of the last commit, updated by this transaction.
    var outstanding: Int
    var inboxCount: Int
    var seqChanged = false
    var peer: PeerRecord?
    var peerChanged = false
    var peerChanges: [UUID] = []

    init(database: Database, path: String, lengths: QueueLengths) throws {
        self.database = database
        self.path = path
        lastSeq = try StoreSchema.metaInteger(database, StoreSchema.Key.lastSeq, path: path)
        outstanding = lengths.outstanding
        inboxCount = lengths.inbox
    }

    mutating func enqueue(
        transferId: UUID, payload: EncodedDictionary, createdAt: Date, complication: Bool, limit: Int
    ) throws -> Result<OutboxTransfer, StoreError> {
        guard outstanding < limit else {
            return .failure(StoreError(.outboxFull, "the outbox holds \(outstanding) outstanding transfers (limit \(limit))", path: path))
        }
        let id = StoreColumns.blob(transferId)
        if try Bool.fetchOne(database.cachedStatement(sql: "SELECT 1 FROM outbox WHERE transfer_id = ?"), arguments: [id]) == true {
            return .failure(StoreError(.ioFailure, "transfer \(transferId) is already in the outbox", path: path, sqliteCode: 19))
        }
        lastSeq += 1
        seqChanged = true
        try database.cachedStatement(
            sql: "INSERT INTO outbox(seq, transfer_id, payload, created_at, finished, complication) VALUES (?, ?, ?, ?, 0, ?)"
        ).execute(arguments: [lastSeq, id, Data(payload.bytes), StoreColumns.real(createdAt), complication])
        outstanding += 1
        return .success(OutboxTransfer(
            seq: UInt64(lastSeq), transferId: transferId, payload: payload, createdAt: createdAt,
            isCurrentComplicationInfo: complication))
    }

    mutating func receive(
        from peerStoreId: UUID,
        _ transfers: [(seq: UInt64, transferId: UUID, payload: EncodedDictionary)], complication: Set<UInt64>,
        queues: [UInt64: InboxQueue], receivedAt: Date, limit: Int
    ) throws -> InboxReceipt {
        var peer = try self.peer ?? PeerRecord.load(database, path: path)
        if try peer.switchTo(peerStoreId, in: database, path: path) {
            peerChanged = true
            peerChanges.append(peerStoreId)
        }
        var count = inboxCount
        var accepted: [InboxTransfer] = []
        var rejected = 0
        for transfer in transfers where transfer.seq > peer.lastSeq {
            // Only a prefix may be stored: once one does not fit, later ones must not overtake it.
            guard rejected == 0, count < limit else {
                rejected += 1
                continue
            }
            let queue = queues[transfer.seq] ?? .app
            try database.cachedStatement(
                sql: "INSERT INTO inbox(peer_store_id, seq, transfer_id, payload, received_at, complication, queue) VALUES (?, ?, ?, ?, ?, ?, ?)"
            ).execute(arguments: [
                StoreColumns.blob(peerStoreId), StoreColumns.integer(transfer.seq),
                StoreColumns.blob(transfer.transferId), Data(transfer.payload.bytes), StoreColumns.real(receivedAt),
                complication.contains(transfer.seq), Int64(queue.rawValue),
            ])
            accepted.append(InboxTransfer(
                deliveryId: UInt64(database.lastInsertedRowID), seq: transfer.seq, transferId: transfer.transferId,
                payload: transfer.payload, receivedAt: receivedAt,
                isCurrentComplicationInfo: complication.contains(transfer.seq), queue: queue))
            peer.lastSeq = transfer.seq
            peerChanged = true
            count += 1
        }
        self.peer = peer
        inboxCount = count
        return InboxReceipt(accepted: accepted, lastSeq: peer.lastSeq, rejectedForSpace: rejected)
    }

    /// Deletes `queue`'s inbox rows up to `deliveryId` (idempotent); other queues' rows stay.
    mutating func consume(upTo deliveryId: UInt64, queue: InboxQueue) throws {
        try database.cachedStatement(sql: "DELETE FROM inbox WHERE delivery_id <= ? AND queue = ?")
            .execute(arguments: [Int64(clamping: deliveryId), Int64(queue.rawValue)])
        inboxCount -= database.changesCount
    }

    /// Marks outstanding transfers up to `upTo` finished; returns those newly finished, in seq order. Only
    /// seqs and ids are read: the payloads stay on disk until didFinish reads them.
    mutating func acknowledge(upTo seq: UInt64) throws -> [FinishedTransfer] {
        let upTo = Int64(clamping: seq)
        let path = self.path
        let finished = try Row.decodeAll(
            database, sql: "SELECT seq, transfer_id FROM outbox WHERE finished = 0 AND seq <= ? ORDER BY seq",
            arguments: [upTo]
        ) { row in
            FinishedTransfer(
                seq: try row.decode(0, "outbox seq", path: path, StoreColumns.unsigned),
                transferId: try row.decode(1, "outbox transfer id", path: path, StoreColumns.uuid))
        }
        if !finished.isEmpty {
            try database.cachedStatement(sql: "UPDATE outbox SET finished = 1 WHERE finished = 0 AND seq <= ?")
                .execute(arguments: [upTo])
            outstanding -= finished.count
        }
        return finished
    }

    /// Writes back what changed, inside the same transaction.
    func finish() throws {
        if seqChanged { try StoreSchema.setMeta(database, StoreSchema.Key.lastSeq, lastSeq) }
        if peerChanged, let peer { try peer.save(database) }
    }
}
