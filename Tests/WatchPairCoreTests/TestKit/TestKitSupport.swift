import Dispatch
import Synchronization
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// Helpers for the test-kit tests, namespaced so they cannot clash with other tests in this target.
enum TestKit {
    /// Runs `transport.serve` in a child task while `body` runs, handing `body` the accepted connections.
    ///
    /// `body` starts once `network` reports `role` serving, so it can connect at once; the server is
    /// cancelled when `body` returns.
    static func withServer<Result: Sendable>(
        _ transport: any Transport,
        on network: InMemoryNetwork,
        role: Role,
        _ body: (AsyncStream<any TransportConnection>) async throws -> Result
    ) async throws -> Result {
        let (accepted, acceptor) = AsyncStream.makeStream(of: (any TransportConnection).self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await transport.serve { acceptor.yield($0) } }
            await network.waitForServing(role)
            defer { group.cancelAll() }
            return try await body(accepted)
        }
    }

    /// The next element of a single-consumer stream read in turn, through a fresh iterator.
    static func next<Element>(_ stream: AsyncStream<Element>) async -> Element? {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next()
    }

    /// The next inbound chunk of `connection`, or `nil` at end of stream.
    static func read(_ connection: any TransportConnection) async throws -> [UInt8]? {
        var iterator = connection.inbound.makeAsyncIterator()
        return try await iterator.next()
    }

    /// The `TransportError.Kind` thrown by `body`, or `nil` if it threw something else or nothing.
    static func errorKind(_ body: () async throws -> Void) async -> TransportError.Kind? {
        do {
            try await body()
            return nil
        } catch let error as TransportError {
            return error.kind
        } catch {
            return nil
        }
    }
}

/// A lock-protected log tests append to from several tasks.
final class TestKitLog<Element: Sendable>: Sendable {
    private let entries = Mutex<[Element]>([])

    func append(_ element: Element) {
        entries.withLock { $0.append(element) }
    }

    var all: [Element] { entries.withLock { $0 } }
}

/// A task executor that runs jobs one at a time in the order they are enqueued, so tasks resumed in a
/// given order also run in that order.
final class TestKitSerialExecutor: TaskExecutor, @unchecked Sendable {
    // Immutable after init; DispatchQueue is thread-safe.
    private let queue = DispatchQueue(label: "watchpair.testkit.serial")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
