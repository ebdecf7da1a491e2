import Foundation
import Synchronization
import Testing
@testable import WatchPairCore
import WatchPairWire

@Suite("Store: group commit")
struct GroupCommitTests {
    typealias Support = StoreTestSupport

    /// The batch sizes the committer reported, in order.
    final class BatchSizes: Sendable {
        private let sizes = Mutex<[Int]>([])
        /// Records one batch; returns whether it was the first.
        func record(_ size: Int) -> Bool {
            sizes.withLock { sizes in
                sizes.append(size)
                return sizes.count == 1
            }
        }
        var all: [Int] { sizes.withLock { $0 } }
    }

    /// Holds the first commit until the rest of `total` callers are queued, recording every batch size.
    static func gateFirstCommit(_ store: PairStore, total: Int) -> BatchSizes {
        let sizes = BatchSizes()
        let writer = store.writer
        writer.beforeCommit.withLock {
            $0 = { size in
                if sizes.record(size) { writer.blockUntilQueued(atLeast: total - size) }
            }
        }
        return sizes
    }

    static func enqueueConcurrently(_ store: PairStore, count: Int) async throws -> [OutboxTransfer] {
        try await withThrowingTaskGroup(of: OutboxTransfer.self) { group in
            for index in 0..<count {
                group.addTask { try await store.enqueue(transferId: UUID(), payload: Support.payload(index)) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test("200 concurrent enqueues share commits; seqs are distinct and contiguous")
    func concurrentEnqueues() async throws {
        try await Support.withStore(durability: .power) { store, _ throws in
            let sizes = Self.gateFirstCommit(store, total: 200)
            let transfers = try await Self.enqueueConcurrently(store, count: 200)
            let statistics = store.statistics
            #expect(statistics.enqueued == 200)
            #expect(statistics.commits < statistics.enqueued)
            #expect(statistics.commits <= 2)
            #expect(sizes.all.reduce(0, +) == 200)
            #expect(transfers.map(\.seq).sorted() == Array(1...200))
            #expect(Set(transfers.map(\.transferId)).count == 200)
            #expect(try await store.outstanding(after: 0, limit: 500).map(\.transferId).count == 200)
        }
    }

    @Test("without a gate, concurrent enqueues still get distinct contiguous seqs")
    func concurrentEnqueuesUngated() async throws {
        try await Support.withStore(durability: .power) { store, _ throws in
            let transfers = try await Self.enqueueConcurrently(store, count: 200)
            #expect(transfers.map(\.seq).sorted() == Array(1...200))
            #expect(store.statistics.commits <= 200)
            #expect(store.statistics.enqueued == 200)
            let stored = try await store.outstanding(after: 0, limit: 500)
            #expect(Set(stored) == Set(transfers))
        }
    }

    @Test("a batch holds at most maxBatchSize requests; the rest go to the next commit")
    func batchBound() async throws {
        try await Support.withStore { store, _ throws in
            let sizes = Self.gateFirstCommit(store, total: 600)
            let transfers = try await Self.enqueueConcurrently(store, count: 600)
            let recorded = sizes.all
            #expect(recorded.allSatisfy { $0 <= PairStore.maxBatchSize })
            #expect(recorded.reduce(0, +) == 600)
            #expect(recorded.count <= 3)
            #expect(store.statistics.commits == recorded.count)
            #expect(transfers.map(\.seq).sorted() == Array(1...600))
        }
    }

    @Test("a request over the limit fails alone; the rest of its batch commits")
    func failureIsolation() async throws {
        try await Support.withStore(outboxLimit: 5) { store, _ throws in
            _ = Self.gateFirstCommit(store, total: 8)
            let results = await withTaskGroup(of: Result<OutboxTransfer, StoreError>.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        do throws(StoreError) { return .success(try await store.enqueue(transferId: UUID(), payload: [:])) } catch { return .failure(error) }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let stored = results.compactMap { try? $0.get() }
            #expect(stored.map(\.seq).sorted() == Array(1...5))
            let full = results.filter { result in
                guard case .failure(let error) = result else { return false }
                return error.kind == .outboxFull
            }
            #expect(full.count == 3)
            #expect(try await store.outstandingCount() == 5)
        }
    }

    @Test("enqueue and receive calls share one transaction")
    func mixedBatch() async throws {
        try await Support.withStore { store, _ throws in
            _ = Self.gateFirstCommit(store, total: 20)
            let peer = UUID()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<10 {
                    group.addTask { _ = try await store.enqueue(transferId: UUID(), payload: [:]) }
                    group.addTask { _ = try await store.receive(from: peer, Support.incoming([UInt64(index + 1)])) }
                }
                try await group.waitForAll()
            }
            #expect(store.statistics.commits <= 2)
            #expect(store.statistics.enqueued == 10)
            #expect(try await store.outstandingCount() == 10)
            // Receives were committed in arrival order, which need not be seq order; dedupe keeps the
            // highest seq, so every one stored is higher than every earlier one.
            let inbox = try await store.inbox(after: 0, limit: 20)
            #expect(inbox.map(\.seq) == inbox.map(\.seq).sorted())
            #expect(store.statistics.received == inbox.count)
        }
    }

    @Test("the app's inbox acknowledgements join the receives' transactions")
    func consumeJoinsBatch() async throws {
        try await Support.withStore(durability: .power) { store, _ throws in
            let peer = UUID()
            _ = try await store.receive(from: peer, Support.incoming(1...10))
            let held = try await store.inbox(after: 0, limit: 10)
            let before = store.statistics.commits
            let sizes = Self.gateFirstCommit(store, total: 6)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<3 {
                    group.addTask { _ = try await store.receive(from: peer, Support.incoming([UInt64(11 + index)])) }
                    group.addTask { try await store.consumeInbox(upTo: held[2 * index + 1].deliveryId) }
                }
                try await group.waitForAll()
            }
            #expect(sizes.all.reduce(0, +) == 6, "every consume went through the writer")
            #expect(store.statistics.commits - before <= 2)
            // The three receives may commit in any order (a lower seq after a higher one is a duplicate);
            // the consumes took seqs 1...6 in every order.
            let remaining = try await store.inbox(after: 0, limit: 20).map(\.seq)
            #expect(Array(remaining.prefix(4)) == [7, 8, 9, 10])
            #expect(remaining.dropFirst(4).allSatisfy { (11...13).contains($0) })
            #expect(try await store.inboxCount() == remaining.count)
        }
    }

    @Test("acknowledgements and forgets join an enqueue's transaction; a batch of only them stays relaxed")
    func bookkeepingJoinsBatch() async throws {
        try await Support.withStore(durability: .power) { store, _ throws in
            let first = try await Self.enqueueConcurrently(store, count: 4).sorted { $0.seq < $1.seq }
            _ = try await store.acknowledge(upTo: first[1].seq)
            let before = store.statistics.commits
            let sizes = Self.gateFirstCommit(store, total: 4)
            let finished = try await withThrowingTaskGroup(of: [FinishedTransfer].self) { group in
                group.addTask { _ = try await store.enqueue(transferId: UUID(), payload: [:]); return [] }
                group.addTask { try await store.acknowledge(upTo: first[3].seq) }
                group.addTask { try await store.markFinishedReported([first[0].transferId]); return [] }
                group.addTask { try await store.markFinishedReported([first[1].transferId]); return [] }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(sizes.all.reduce(0, +) == 4, "every write went through the writer")
            #expect(store.statistics.commits - before <= 2)
            #expect(finished.map(\.seq) == [first[2].seq, first[3].seq])
            #expect(try await store.outstandingCount() == 1)
            #expect(try await store.unreportedFinished(limit: 10).map(\.seq) == [first[2].seq, first[3].seq])
            // Relaxed batches switch the connection back to FULL after their commit.
            #expect(try await store.database.writerPragma("synchronous") == "2")
        }
    }
}
