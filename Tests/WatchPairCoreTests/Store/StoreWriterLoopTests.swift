import Foundation
import Glibc
import Synchronization
import Testing
@testable import WatchPairCore

/// A stand-in event loop: jobs queue until the test runs them, on the test's own thread.
final class ManualLoop: Sendable {
    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var waiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?
        /// Jobs run as they are queued (``runFromNowOn()``).
        var runsAtOnce = false
    }

    private let state = Mutex(State())
    /// The thread running jobs now (0: none).
    private let runner = Atomic<UInt>(0)
    /// Set in a task that stands for a caller on no loop (a tool, a test).
    @TaskLocal static var offLoop = false

    /// Every caller counts as on this loop, except in a task with ``offLoop`` set.
    var loops: CurrentEventLoop {
        CurrentEventLoop { () -> CurrentEventLoop.Enqueue? in
            if ManualLoop.offLoop { return nil }
            return { job in self.enqueue(job) }
        }
    }

    /// Whether the calling thread is running this loop's jobs.
    var isCurrent: Bool { runner.load(ordering: .relaxed) == pthread_self() }

    private func enqueue(_ job: @escaping @Sendable () -> Void) {
        if state.withLock({ $0.runsAtOnce }) { return job() }
        let ready = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.jobs.append(job)
            guard let waiter = state.waiter, state.jobs.count >= waiter.count else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        ready?.resume()
    }

    /// Returns once at least `count` jobs are queued.
    func waitForJobs(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                guard state.jobs.count < count else { return true }
                state.waiter = (count, continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Runs what is queued and, from now on, every job as it is queued: so that a test whose expectation
    /// failed still ends instead of waiting for a job nobody runs.
    func runFromNowOn() {
        state.withLock { $0.runsAtOnce = true }
        runJobs()
    }

    /// Runs the jobs queued now, in order, on the calling thread; how many ran.
    @discardableResult
    func runJobs() -> Int {
        let jobs = state.withLock { state in
            defer { state.jobs.removeAll() }
            return state.jobs
        }
        runner.store(pthread_self(), ordering: .relaxed)
        defer { runner.store(0, ordering: .relaxed) }
        for job in jobs { job() }
        return jobs.count
    }
}

@Suite("Store: the writer and its callers' event loop", .timeLimit(.minutes(3)))
struct StoreWriterLoopTests {
    /// Every batch, and whether it was committed on the loop's thread.
    final class Commits: Sendable {
        private let commits = Mutex<[(batch: [Int], onLoop: Bool)]>([])
        var all: [(batch: [Int], onLoop: Bool)] { commits.withLock { $0 } }

        func commit(on loop: ManualLoop) -> StoreWriter<Int, Int>.Commit {
            { requests in
                self.commits.withLock { $0.append((requests, loop.isCurrent)) }
                return requests.map { .success($0 * 10) }
            }
        }
    }

    /// A writer on a fresh manual loop, and its commit function recording into `commits`.
    private static func writer(
        named name: String
    ) -> (ManualLoop, StoreWriter<Int, Int>, Commits, StoreWriter<Int, Int>.Commit) {
        let loop = ManualLoop()
        let commits = Commits()
        return (loop, StoreWriter(maxBatchSize: 8, name: name, loops: loop.loops), commits, commits.commit(on: loop))
    }

    @Test("a request alone from a loop is the thread's; its caller goes on from that loop, by one job")
    func aloneToTheThread() async throws {
        let (loop, writer, commits, commit) = Self.writer(named: "wp-loop-alone")
        defer { writer.stop() }
        async let outcome = writer.submit(1, commit: commit)
        // The thread commits it, then queues the job that resumes the caller.
        await loop.waitForJobs()
        #expect(commits.all.map(\.batch) == [[1]])
        #expect(commits.all.map(\.onLoop) == [false])
        #expect(loop.runJobs() == 1)
        loop.runFromNowOn()
        #expect(try await outcome.get() == 10)
        #expect(try StoreWriterTests.threadNames().contains("wp-loop-alone"))
    }

    @Test("requests asked while the thread commits are its next batch, one transaction, their callers resumed by one job on their loop")
    func duringAThreadCommit() async throws {
        let (loop, writer, commits, commit) = Self.writer(named: "wp-loop-during")
        defer { writer.stop() }
        // The thread's first commit tells the test, then waits until the loop's two requests are queued.
        let (holding, hold) = AsyncStream<Void>.makeStream()
        let first = Mutex(true)
        writer.beforeCommit.withLock {
            $0 = { _ in
                let isFirst = first.withLock { isFirst in
                    defer { isFirst = false }
                    return isFirst
                }
                guard isFirst else { return }
                hold.yield()
                writer.blockUntilQueued(atLeast: 2)
            }
        }
        let offLoop = Task { await ManualLoop.$offLoop.withValue(true) { await writer.submit(1, commit: commit) } }
        for await _ in holding { break }
        async let second = writer.submit(2, commit: commit)
        async let third = writer.submit(3, commit: commit)
        #expect(try await offLoop.value.get() == 10)
        await loop.waitForJobs()
        #expect(commits.all.map(\.batch).map { $0.sorted() } == [[1], [2, 3]])
        #expect(commits.all.allSatisfy { !$0.onLoop })
        #expect(loop.runJobs() == 1)
        loop.runFromNowOn()
        #expect(try await second.get() == 20)
        #expect(try await third.get() == 30)
    }

    @Test("a store commits a lone transfer on its thread under either durability; its caller goes on from the loop", arguments: [Durability.power, .process])
    func storeByDurability(_ durability: Durability) async throws {
        try await StoreTestSupport.withTemporaryDirectory { directory in
            let loop = ManualLoop()
            let configuration = StoreConfiguration(directory: directory, durability: durability)
            let store = try await PairStore.open(configuration, logger: StoreTestSupport.logger, loops: loop.loops)
            let payload = try StoreColumns.encoded(StoreTestSupport.payload(1), path: directory)
            let before = store.statistics.commits
            async let enqueued = store.enqueue(payload: payload)
            // The job that resumes the caller comes after the thread's commit.
            await loop.waitForJobs()
            #expect(store.statistics.commits == before + 1)
            #expect(loop.runJobs() == 1)
            loop.runFromNowOn()
            #expect(try await enqueued.seq == 1)
            try await store.close()
        }
    }
}
