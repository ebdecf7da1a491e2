import Foundation
import GRDB
import Testing
@testable import WatchPairCore
import WatchPairWire

/// A full disk (SQLITE_FULL, simulated with `PRAGMA max_page_count`) fails transactions mid-way; the
/// in-memory queue lengths must still equal the committed rows, and the inbox bound must hold.
@Suite("Store: full disk")
struct FullDiskTests {
    typealias Support = StoreTestSupport

    /// The rows actually committed, counted by SQL.
    static func recount(_ store: PairStore) async throws -> QueueLengths {
        try await store.database.read("recount") { try QueueLengths.count($0) }
    }

    /// Caps the database at its current size plus `pages` pages.
    static func cap(_ store: PairStore, extraPages pages: Int) async throws {
        try await store.database.pool.writeWithoutTransaction { database in
            let count = try Int.fetchOne(database, sql: "PRAGMA page_count") ?? 0
            _ = try Int.fetchOne(database, sql: "PRAGMA max_page_count = \(count + pages)")
        }
    }

    static func bulky(_ seq: UInt64) -> (seq: UInt64, transferId: UUID, payload: PlistDictionary) {
        (seq: seq, transferId: UUID(), payload: ["n": .integer(Int64(seq)), "fill": .data(Data(repeating: 7, count: 3000))])
    }

    @Test("receives that fail with SQLITE_FULL change no count; consuming frees room; the bound holds")
    func inboxCountsFollowCommitsOnly() async throws {
        try await Support.withStore(inboxLimit: 40) { store, _ throws in
            let peer = UUID()
            try await Self.cap(store, extraPages: 30)
            var seq: UInt64 = 0
            var failures = 0
            // Batches of 3 (~9 KB) until the disk is full a few times.
            for _ in 0..<40 {
                let batch = (seq + 1...seq + 3).map(Self.bulky)
                do {
                    let receipt = try await store.receive(from: peer, batch)
                    seq = receipt.lastSeq
                } catch {
                    #expect((error as? StoreError)?.wcCode == .insufficientSpace, "\(error)")
                    failures += 1
                }
                #expect(store.queueLengths == (try await Self.recount(store)))
            }
            #expect(failures > 0, "the cap never filled the disk")
            // Unlimited again: the app takes what it has, more arrives, the bound of 40 holds.
            try await Self.cap(store, extraPages: 100_000)
            let held = try await store.inbox(after: 0, limit: 1000)
            if let last = held.last { try await store.consumeInbox(upTo: last.deliveryId) }
            #expect(try await store.inboxCount() == 0)
            let receipt = try await store.receive(from: peer, (seq + 1...seq + 60).map(Self.bulky))
            #expect(receipt.accepted.count == 40)
            #expect(receipt.rejectedForSpace == 20)
            #expect(try await store.inboxCount() == 40)
            #expect(store.queueLengths == (try await Self.recount(store)))
        }
    }

    @Test("enqueues and acknowledgements that fail with SQLITE_FULL change no count")
    func outboxCountsFollowCommitsOnly() async throws {
        try await Support.withStore { store, _ throws in
            try await Self.cap(store, extraPages: 20)
            var accepted: [UInt64] = []
            for index in 0..<60 {
                do {
                    let payload: PlistDictionary = ["n": .integer(Int64(index)), "fill": .data(Data(repeating: 1, count: 3000))]
                    accepted.append(try await store.enqueue(transferId: UUID(), payload: payload).seq)
                } catch {
                    #expect((error as? StoreError)?.wcCode == .insufficientSpace, "\(error)")
                }
                #expect(store.queueLengths == (try await Self.recount(store)))
            }
            #expect(accepted.count < 60, "the cap never filled the disk")
            #expect(store.highestAssignedSeq >= accepted.max() ?? 0)
            _ = try? await store.acknowledge(upTo: accepted.max() ?? 0)
            #expect(store.queueLengths == (try await Self.recount(store)))
        }
    }
}
