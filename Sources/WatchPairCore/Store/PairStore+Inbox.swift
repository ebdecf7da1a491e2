import Foundation
import GRDB
import WatchPairWire

// Receiver side: the userInfo inbox and the dedupe state for the peer store.
extension PairStore {
    /// Stores transfers received from `peerStoreId` (given in seq order) and returns what was kept.
    ///
    /// Transfers with seq <= the last seq held from that peer store are duplicates and skipped. If
    /// `peerStoreId` differs from the peer store seen before, the dedupe state (last seq and context version)
    /// restarts at 0 for the new peer store; the old inbox rows stay for the app. Dedupe state and inbox rows
    /// are written in the same transaction. Group commit as for `enqueue`. Respects `inboxLimit`: stores the
    /// prefix that fits; the rest is counted in `rejectedForSpace` and `lastSeq` stays below them, so they are
    /// not acknowledged and will be resent.
    public func receive(
        from peerStoreId: UUID, _ transfers: [(seq: UInt64, transferId: UUID, payload: PlistDictionary)]
    ) async throws(StoreError) -> InboxReceipt {
        var encoded: [(seq: UInt64, transferId: UUID, payload: EncodedDictionary)] = []
        for transfer in transfers {
            encoded.append((transfer.seq, transfer.transferId, try StoreColumns.encoded(transfer.payload, path: path)))
        }
        return try await receive(from: peerStoreId, encoded: encoded)
    }

    /// As `receive(from:_:)`, for payloads as the frames carried them: the inbox keeps exactly these bytes.
    /// `complication` names the seqs that came as complication transfers (`isCurrentComplicationInfo`);
    /// `queues` the seqs routed to a queue other than the app's (``InboxQueue``).
    public func receive(
        from peerStoreId: UUID, encoded transfers: [(seq: UInt64, transferId: UUID, payload: EncodedDictionary)],
        complication: Set<UInt64> = [], queues: [UInt64: InboxQueue] = [:]
    ) async throws(StoreError) -> InboxReceipt {
        let request = BatchRequest.receive(peerStoreId: peerStoreId, transfers: transfers, complication: complication, queues: queues)
        return try await submit(request, answer: \.received)
    }

    /// Received transfers of `queue` not yet taken by its reader, with deliveryId > `after`, in order, at
    /// most `limit`. Each payload is strictly decoded here, once, for the app (a row that does not decode
    /// throws a `.corrupt` error). What just arrived comes from the inbox's tail (``StoreTail``), without
    /// a read transaction.
    public func inbox(after deliveryId: UInt64, limit: Int, queue: InboxQueue = .app) async throws(StoreError) -> [InboxTransfer] {
        guard limit > 0, deliveryId < UInt64(Int64.max) else { return [] }
        try database.checkOpen()
        if let page = tails.withLock({ $0.inbox.page(after: deliveryId, limit: limit, where: { $0.queue == queue }) }) { return page }
        let path = self.path
        return try await database.read("reading the inbox") { database in
            try Self.inboxTransfers(database, path: path, after: deliveryId, limit: limit, queue: queue)
        }
    }

    /// ``inbox(after:limit:queue:)``, and the delivery id up to which every row (of any queue) was looked
    /// at: the reader of one queue continues after `through`, so the other queues' rows between are not
    /// looked at again (from the tail, scanning them was a queue reader's cost per received batch).
    public func inboxScan(after deliveryId: UInt64, limit: Int, queue: InboxQueue) async throws(StoreError) -> (transfers: [InboxTransfer], through: UInt64) {
        guard limit > 0, deliveryId < UInt64(Int64.max) else { return ([], deliveryId) }
        try database.checkOpen()
        if let scan = tails.withLock({ $0.inbox.scan(after: deliveryId, limit: limit, where: { $0.queue == queue }) }) {
            return (scan.rows, scan.through)
        }
        let path = self.path
        return try await database.read("reading the inbox") { database in
            let transfers = try Self.inboxTransfers(database, path: path, after: deliveryId, limit: limit, queue: queue)
            if transfers.count == limit, let last = transfers.last { return (transfers, last.deliveryId) }
            let highest = try Int64.fetchOne(database, sql: "SELECT MAX(delivery_id) FROM inbox") ?? 0
            return (transfers, max(deliveryId, UInt64(highest)))
        }
    }

    /// At most `limit` inbox rows of `queue` after `deliveryId`, in order.
    static func inboxTransfers(
        _ database: Database, path: String, after deliveryId: UInt64, limit: Int, queue: InboxQueue
    ) throws -> [InboxTransfer] {
        try Row.decodeAll(
            database,
            sql: """
                SELECT delivery_id, seq, transfer_id, payload, received_at, complication FROM inbox
                WHERE delivery_id > ? AND queue = ? ORDER BY delivery_id LIMIT ?
                """,
            arguments: [Int64(deliveryId), Int64(queue.rawValue), limit]
        ) { row in
            InboxTransfer(
                deliveryId: try row.decode(0, "inbox delivery id", path: path, StoreColumns.unsigned),
                seq: try row.decode(1, "inbox seq", path: path, StoreColumns.unsigned),
                transferId: try row.decode(2, "inbox transfer id", path: path, StoreColumns.uuid),
                payload: try row.decode(3, "inbox payload", path: path, StoreColumns.validatedPayload),
                receivedAt: try row.decode(4, "inbox date", path: path, StoreColumns.date),
                isCurrentComplicationInfo: try row.decode(5, "inbox complication flag", path: path, StoreColumns.flag),
                queue: queue)
        }
    }

    /// The number of received transfers not yet taken by the app.
    public func inboxCount() async throws(StoreError) -> Int {
        try database.checkOpen()
        return queueLengths.inbox
    }

    /// `queue`'s reader has taken every one of its transfers with deliveryId <= `upTo`: delete them; the
    /// other queues' rows stay. Idempotent.
    ///
    /// Durable (an acknowledged transfer must not reach the app again after a power failure), and committed
    /// by the store's writer with `receive` and `enqueue`: an app acknowledging while transfers arrive shares their fsync.
    public func consumeInbox(upTo deliveryId: UInt64, queue: InboxQueue = .app) async throws(StoreError) {
        try await submit(.consume(upTo: deliveryId, queue: queue), answer: \.consumed)
    }

    /// What this side has durably received, for the handshake: the current peer store (nil if never),
    /// and the last userInfo seq and context version held from it.
    public func resumeState() async throws(StoreError) -> ResumeState {
        let path = self.path
        return try await database.read("reading the resume state") { database in
            let peer = try PeerRecord.load(database, path: path)
            return ResumeState(peerStoreId: peer.storeId, lastUserInfoSeq: peer.lastSeq, contextVersion: peer.contextVersion)
        }
    }

    /// Records that the link now talks to peer store `peerStoreId` (called at handshake); if it differs from
    /// the known one, resets the dedupe state as `receive` does. Writes nothing when it is the known one.
    public func notePeerStore(_ peerStoreId: UUID) async throws(StoreError) {
        let path = self.path
        let changed = try await database.write("recording the peer store") { database in
            var peer = try PeerRecord.load(database, path: path)
            guard try peer.switchTo(peerStoreId, in: database, path: path) else { return false }
            try peer.save(database)
            return true
        }
        if changed { logger.info("now linked to peer store", metadata: ["peerStoreId": "\(peerStoreId)"]) }
    }
}
