import Foundation
import Synchronization
import Testing
@testable import WatchPairCore

@Suite("Store: the writer thread")
struct StoreWriterTests {
    /// Every batch the commit function saw, in order.
    final class Batches: Sendable {
        private let batches = Mutex<[[Int]]>([])
        func record(_ batch: [Int]) { batches.withLock { $0.append(batch) } }
        var all: [[Int]] { batches.withLock { $0 } }
    }

    static func commit(_ batches: Batches) -> StoreWriter<Int, Int>.Commit {
        { requests in
            batches.record(requests)
            return requests.map { $0 < 0 ? .failure(StoreError(.outboxFull, "negative", path: "test")) : .success($0 * 10) }
        }
    }

    /// Holds the first commit until the rest of `total` requests are queued; then calls `then`.
    static func holdFirstCommit(_ writer: StoreWriter<Int, Int>, total: Int, then: @escaping @Sendable () -> Void = {}) {
        let first = Batches()
        writer.beforeCommit.withLock {
            $0 = { size in
                first.record([size])
                guard first.all.count == 1 else { return }
                writer.blockUntilQueued(atLeast: total - size)
                then()
            }
        }
    }

    @Test("requests queued while a commit runs are the next batches, within the bound")
    func batchesInOrder() async throws {
        let writer = StoreWriter<Int, Int>(maxBatchSize: 4, name: "test writer")
        defer { writer.stop() }
        let batches = Batches()
        // The first commit waits for the other requests, so they queue behind it.
        Self.holdFirstCommit(writer, total: 10)
        let commit = Self.commit(batches)
        let outcomes = await withTaskGroup(of: (Int, Result<Int, StoreError>).self) { group in
            for request in 0...9 { group.addTask { (request, await writer.submit(request, commit: commit)) } }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(outcomes.count == 10)
        for (request, outcome) in outcomes { #expect(try outcome.get() == request * 10) }
        let recorded = batches.all
        #expect(recorded.allSatisfy { $0.count <= 4 })
        #expect(recorded.flatMap { $0 }.sorted() == Array(0...9))
        #expect(recorded.count >= 3, "ten requests at four per batch")
    }

    @Test("a failed request fails alone; its neighbours in the batch get their own outcomes")
    func outcomesPerRequest() async throws {
        let writer = StoreWriter<Int, Int>(maxBatchSize: 8, name: "test writer")
        defer { writer.stop() }
        let commit = Self.commit(Batches())
        async let good = writer.submit(3, commit: commit)
        async let bad = writer.submit(-1, commit: commit)
        #expect(try await good.get() == 30)
        guard case .failure(let error) = await bad else {
            Issue.record("a negative request should fail")
            return
        }
        #expect(error.kind == .outboxFull)
    }

    @Test("stop writes what is queued before the thread ends")
    func stopDrains() async throws {
        let writer = StoreWriter<Int, Int>(maxBatchSize: 2, name: "test writer")
        let batches = Batches()
        Self.holdFirstCommit(writer, total: 6) { writer.stop() }
        let commit = Self.commit(batches)
        let outcomes = await withTaskGroup(of: Result<Int, StoreError>.self) { group in
            for request in 1...6 { group.addTask { await writer.submit(request, commit: commit) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.count == 6)
        #expect(batches.all.flatMap { $0 }.sorted() == Array(1...6))
    }

    /// The kernel's names of this process's threads (`/proc/self/task/*/comm`).
    static func threadNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").compactMap {
            try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8).trimmingCharacters(in: .newlines)
        }
    }

    @Test("the writer thread carries its name in the kernel (perf, top -H)")
    func threadName() async throws {
        let writer = StoreWriter<Int, Int>(maxBatchSize: 1, name: "wp-writer-test")
        defer { writer.stop() }
        // The thread names itself before its first commit, so it has once this request is answered.
        _ = await writer.submit(1, commit: Self.commit(Batches()))
        #expect(try Self.threadNames().contains("wp-writer-test"))
    }
}
