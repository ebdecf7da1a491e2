import Foundation
import GRDB
import Testing
@testable import WatchPairCore
import WatchPairWire

/// The queue lengths the store keeps in memory must always equal the committed rows.
@Suite("Store: queue lengths and relaxed commits")
struct QueueLengthsTests {
    typealias Support = StoreTestSupport

    @Test("the cached lengths follow enqueue, cancel, acknowledge, receive and consume, and equal a recount at reopen")
    func lengthsFollowEveryWrite() async throws {
        try await Support.withStore { store, configuration throws in
            var ids: [UUID] = []
            for index in 0..<6 { ids.append(try await store.enqueue(transferId: UUID(), payload: Support.payload(index)).transferId) }
            #expect(try await store.cancel(transferId: ids[5]))
            #expect(try await store.cancel(transferId: ids[5]) == false)
            #expect(try await store.outstandingCount() == 5)
            #expect(try await store.acknowledge(upTo: 2).count == 2)
            #expect(try await store.acknowledge(upTo: 2).isEmpty)
            #expect(try await store.outstandingCount() == 3)
            try await store.markFinishedReported(Array(ids[0..<2]))
            #expect(try await store.outstandingCount() == 3, "reported transfers were not outstanding")

            let peer = UUID()
            _ = try await store.receive(from: peer, Support.incoming(1...4))
            _ = try await store.receive(from: peer, Support.incoming(3...6))
            #expect(try await store.inboxCount() == 6, "duplicates are not counted")
            let inbox = try await store.inbox(after: 0, limit: 10)
            try await store.consumeInbox(upTo: inbox[1].deliveryId)
            try await store.consumeInbox(upTo: inbox[1].deliveryId)
            #expect(try await store.inboxCount() == 4)
            #expect(store.queueLengths == QueueLengths(outstanding: 3, inbox: 4))
            try await store.close()

            try await Support.reopen(configuration) { reopened throws in
                #expect(reopened.queueLengths == QueueLengths(outstanding: 3, inbox: 4))
            }
        }
    }

    @Test("the outbox bound holds on the cached length, and space freed by an acknowledgement is usable")
    func outboxBound() async throws {
        try await Support.withStore(outboxLimit: 3) { store, _ throws in
            for _ in 0..<3 { _ = try await store.enqueue(transferId: UUID(), payload: [:]) }
            let full = await Support.expectStoreError { _ = try await store.enqueue(transferId: UUID(), payload: [:]) }
            #expect(full?.kind == .outboxFull)
            _ = try await store.acknowledge(upTo: 1)
            #expect(try await store.enqueue(transferId: UUID(), payload: [:]).seq == 4)
            let again = await Support.expectStoreError { _ = try await store.enqueue(transferId: UUID(), payload: [:]) }
            #expect(again?.kind == .outboxFull)
        }
    }

    @Test("the inbox bound holds on the cached length across batches")
    func inboxBound() async throws {
        try await Support.withStore(inboxLimit: 3) { store, _ throws in
            let peer = UUID()
            let first = try await store.receive(from: peer, Support.incoming(1...2))
            #expect(first.accepted.count == 2)
            let second = try await store.receive(from: peer, Support.incoming(3...5))
            #expect(second.accepted.map(\.seq) == [3])
            #expect(second.rejectedForSpace == 2)
            #expect(try await store.inboxCount() == 3)
        }
    }

    @Test("a rolled-back batch leaves the cached lengths as they were")
    func rollbackKeepsLengths() async throws {
        try await Support.withStore { store, _ in
            _ = try await store.enqueue(transferId: UUID(), payload: [:])
            let pages = try #require(try await store.database.writerPragma("page_count").flatMap { Int($0) })
            _ = try await store.database.writerPragma("max_page_count = \(pages + 2)")
            let big: PlistDictionary = ["blob": .data(Data(repeating: 1, count: 64 * 1024))]
            let error = await Support.expectStoreError { _ = try await store.enqueue(transferId: UUID(), payload: big) }
            #expect(error?.kind == .diskFull)
            #expect(store.queueLengths.outstanding == 1)
        }
    }

    @Test("a relaxed commit is visible and survives reopen, and the connection is back at synchronous=FULL")
    func relaxedCommitRestoresFull() async throws {
        try await Support.withStore(durability: .power) { store, configuration throws in
            let transfer = try await store.enqueue(transferId: UUID(), payload: [:])
            #expect(try await store.acknowledge(upTo: transfer.seq).map(\.seq) == [transfer.seq])
            #expect(try await store.database.writerPragma("synchronous") == "2", "FULL is 2")
            try await store.contexts.setPeerContextAck(7)
            #expect(try await store.database.writerPragma("synchronous") == "2")
            try await store.close()
            try await Support.reopen(configuration) { reopened throws in
                #expect(try await reopened.outstandingCount() == 0)
                #expect(try await reopened.unreportedFinished(limit: 10).map(\.seq) == [transfer.seq])
                #expect(try await reopened.contexts.peerContextAck() == 7)
            }
        }
    }

    @Test("under power durability, a relaxed transaction runs at synchronous=NORMAL and a durable one at FULL")
    func relaxedRunsAtNormal() async throws {
        try await Support.withStore(durability: .power) { store, _ throws in
            let pragma: @Sendable (GRDB.Database) throws -> String? = { try String.fetchOne($0, sql: "PRAGMA synchronous") }
            #expect(try await store.database.write("probe", sync: .relaxed, pragma) == "1", "NORMAL is 1")
            #expect(try await store.database.write("probe", sync: .durable, pragma) == "2")
        }
    }
}
