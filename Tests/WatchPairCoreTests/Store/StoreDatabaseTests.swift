import Foundation
import GRDB
import Testing
@testable import WatchPairCore

/// `StoreDatabase`'s own rules, on its transactions directly: what it counts follows committed
/// transactions that changed rows, and nothing else.
@Suite("Store: database transactions")
struct StoreDatabaseTests {
    typealias Support = StoreTestSupport

    struct Refused: Error {}

    @Test("a commit is counted only when its transaction changed rows")
    func commitsCountChangedTransactions() async throws {
        try await Support.withStore { store, _ throws in
            let database = store.database
            let before = database.commits
            _ = try await database.write("reading inside a write") { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM outbox") }
            #expect(database.commits == before, "a transaction that changed nothing is not a commit")
            try await database.write("changing a row") { try StoreSchema.setMeta($0, StoreSchema.Key.contextPeerAck, 1) }
            #expect(database.commits == before + 1)
            try await database.write("changing a row", sync: .relaxed) { try StoreSchema.setMeta($0, StoreSchema.Key.contextPeerAck, 2) }
            #expect(database.commits == before + 2, "a relaxed commit is a commit")
        }
    }

    @Test("a transaction that throws changes neither the queue lengths nor the commit count, nor any row")
    func failedTransactionCountsNothing() async throws {
        try await Support.withStore { store, _ throws in
            let database = store.database
            let lengths = database.queueLengths
            let commits = database.commits
            let error = await Support.expectStoreError {
                try await database.write("a refused write") { database, lengths in
                    try StoreSchema.setMeta(database, StoreSchema.Key.contextPeerAck, 7)
                    lengths.outstanding += 5
                    throw Refused()
                }
            }
            #expect(error?.kind == .ioFailure)
            #expect(database.queueLengths == lengths)
            #expect(database.commits == commits)
            #expect(try await store.contexts.peerContextAck() == 0, "the transaction was rolled back")
        }
    }

    @Test("after close every call throws, and closing again is harmless")
    func closedDatabaseThrows() async throws {
        try await Support.withStore { store, _ throws in
            let database = store.database
            try await database.close()
            try await database.close()
            let read = await Support.expectStoreError { _ = try await database.read("a late read") { _ in 1 } }
            #expect(read?.kind == .ioFailure)
            let write = await Support.expectStoreError { _ = try await database.write("a late write") { _ in 1 } }
            #expect(write?.kind == .ioFailure)
        }
    }
}
