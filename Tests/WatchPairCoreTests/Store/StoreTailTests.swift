import Foundation
import GRDB
import Testing
@testable import WatchPairCore
import WatchPairWire

/// ``StoreTail``: the table's newest rows in memory, answering a page only where it holds all of them.
@Suite("store tail")
struct StoreTailTests {
    struct Row: StoreTailRow, Equatable {
        var position: UInt64
        var byteCount: Int = 10
        var flag = false
    }

    /// A tail that saw `appended` in one append each, then had `removed` deleted.
    static func tail(maxRows: Int = 4, maxBytes: Int = 1_000, _ appended: [[UInt64]], removing removed: Set<UInt64> = []) -> StoreTail<Row> {
        var tail = StoreTail<Row>(maxRows: maxRows, maxBytes: maxBytes)
        for batch in appended { tail.append(batch.map { Row(position: $0) }) }
        tail.remove { removed.contains($0.position) }
        return tail
    }

    @Test("a page is answered only at or above the floor", arguments: [
        // (appended batches, removed, after, limit) → page positions, or nil for "read the table"
        ([[UInt64]](), Set<UInt64>(), UInt64(0), 10, [UInt64]?.none),  // nothing appended since open: the table
        ([[5, 6]], [], 0, 10, nil),  // rows below 5 may be in the table
        ([[5, 6]], [], 4, 10, [5, 6]),  // the floor: everything above 4 is here
        ([[5, 6]], [], 5, 10, [6]),
        ([[5, 6], [7]], [], 4, 2, [5, 6]),  // the limit
        ([[5, 6], [7]], [6], 4, 10, [5, 7]),  // a deleted row is gone from the page, the floor stays
        ([[5, 6], [7]], [5, 6, 7], 4, 10, []),  // all taken: an empty answer, not a read
        ([[1, 2, 3], [4, 5, 6]], [], 1, 10, nil),  // 6 rows in a 4-row tail: 1 and 2 were dropped, floor 2
        ([[1, 2, 3], [4, 5, 6]], [], 2, 10, [3, 4, 5, 6]),
    ] as [([[UInt64]], Set<UInt64>, UInt64, Int, [UInt64]?)])
    func pages(appended: [[UInt64]], removed: Set<UInt64>, after: UInt64, limit: Int, expected: [UInt64]?) {
        let tail = Self.tail(appended, removing: removed)
        #expect(tail.page(after: after, limit: limit)?.map(\.position) == expected)
    }

    @Test("the byte bound drops the oldest rows and raises the floor past them")
    func byteBound() {
        var tail = StoreTail<Row>(maxRows: 100, maxBytes: 25)
        tail.append([Row(position: 1, byteCount: 10), Row(position: 2, byteCount: 10)])
        #expect(tail.floor == 0)
        tail.append([Row(position: 3, byteCount: 10)])
        #expect(tail.rows.map(\.position) == [2, 3])
        #expect(tail.floor == 1)
        #expect(tail.byteCount == 20)
        tail.append([Row(position: 4, byteCount: 100)])  // larger than the bound alone: nothing stays
        #expect(tail.rows.isEmpty)
        #expect(tail.floor == 4)
        #expect(tail.page(after: 4, limit: 10) == [], "above 4 the table has nothing")
        #expect(tail.page(after: 3, limit: 10) == nil)
    }

    @Test("a scan of some rows says how far it looked: past the others, up to a full page", arguments: [
        // (after, limit) → (positions taken, looked through)
        (UInt64(0), 10, [UInt64(2), 4], UInt64(5)),
        (0, 1, [2], 2),
        (2, 1, [4], 5),  // 5 was looked at too: not a match
        (4, 10, [], 5),
        (5, 10, [], 5),
    ])
    func scanThrough(after: UInt64, limit: Int, taken: [UInt64], through: UInt64) throws {
        let tail = Self.tail(maxRows: 10, [[1, 2, 3, 4, 5]])
        let scan = try #require(tail.scan(after: after, limit: limit, where: { $0.position.isMultiple(of: 2) }))
        #expect(scan.rows.map(\.position) == taken)
        #expect(scan.through == through)
    }

    @Test("updates and the predicate select rows in place")
    func updates() {
        var tail = Self.tail(maxRows: 10, [[1, 2, 3, 4]])
        tail.update(where: { $0.position <= 2 }) { $0.flag = true }
        #expect(tail.page(after: 0, limit: 10, where: \.flag)?.map(\.position) == [1, 2])
        #expect(tail.page(after: 0, limit: 10) { !$0.flag }?.map(\.position) == [3, 4])
        #expect(tail.page(after: 1, limit: 10, where: \.flag)?.map(\.position) == [2])
    }

    /// The store's tails against its table: after every kind of change, in random order, what the tails
    /// answer equals what SQLite holds (read here directly, past the tails).
    @Test("the store's tails answer exactly what the table holds", arguments: [1, 2, 3] as [UInt64])
    func storeAgreesWithTable(seed: UInt64) async throws {
        // A linear congruential sequence: the same operations for the same seed.
        var state = seed
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        try await StoreTestSupport.withStore { store, _ in
            let peer = UUID()
            var peerSeq: UInt64 = 0
            var sentAck: UInt64 = 0
            var consumed: UInt64 = 0
            for step in 0..<400 {
                switch next() % 6 {
                case 0, 1:
                    _ = try await store.enqueue(transferId: UUID(), payload: StoreTestSupport.payload(step))
                case 2:
                    let count = next() % 4 + 1
                    _ = try await store.receive(from: peer, StoreTestSupport.incoming((peerSeq + 1)...(peerSeq + count)))
                    peerSeq += count
                case 3:
                    sentAck = min(store.highestAssignedSeq, sentAck + next() % 5)
                    _ = try await store.acknowledge(upTo: sentAck)
                case 4:
                    let finished = try await store.unreportedFinished(limit: Int(next() % 3 + 1))
                    try await store.markFinishedReported(finished.map(\.transferId))
                    if let outstanding = try await store.outstanding(after: 0, limit: 5).last {
                        _ = try await store.cancel(transferId: outstanding.transferId)
                    }
                default:
                    consumed = min(consumed + next() % 3, try await store.inbox(after: 0, limit: 1_000).last?.deliveryId ?? consumed)
                    try await store.consumeInbox(upTo: consumed)
                }
                for after in [0, sentAck, max(store.highestAssignedSeq, 2) - 2] {
                    let sent = try await store.outstandingToSend(after: after, limit: 50).map(\.seq)
                    #expect(sent == (try await Self.table(store, "finished = 0", after: after)), "step \(step): outstanding after \(after)")
                    let finished = try await store.unreportedFinished(after: after, limit: 50).map(\.seq)
                    #expect(finished == (try await Self.table(store, "finished = 1", after: after)), "step \(step): finished after \(after)")
                }
                for after in [0, consumed, consumed + 2] {
                    let inbox = try await store.inbox(after: after, limit: 50).map(\.deliveryId)
                    #expect(inbox == (try await Self.inboxTable(store, after: after)), "step \(step): inbox after \(after)")
                }
            }
            #expect(store.tails.withLock { $0.outbox.floor } != nil, "the outbox tail was used")
        }
    }

    /// Outbox seqs matching `condition` after `after`, read from SQLite itself.
    static func table(_ store: PairStore, _ condition: String, after: UInt64) async throws -> [UInt64] {
        try await store.database.read("test") { database in
            try Int64.fetchAll(database, sql: "SELECT seq FROM outbox WHERE \(condition) AND seq > ? ORDER BY seq LIMIT 50", arguments: [Int64(after)])
        }.map { UInt64($0) }
    }

    static func inboxTable(_ store: PairStore, after: UInt64) async throws -> [UInt64] {
        try await store.database.read("test") { database in
            try Int64.fetchAll(database, sql: "SELECT delivery_id FROM inbox WHERE delivery_id > ? ORDER BY delivery_id LIMIT 50", arguments: [Int64(after)])
        }.map { UInt64($0) }
    }
}
