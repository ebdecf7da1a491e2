import Synchronization
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairTransport
import WatchPairWire

@testable import WatchPairHost

/// A daemon that stops cancels its control clients' tasks; a client that no longer reads must not hold that
/// up: a stream whose write waits on the client is ended by closing the connection, and the connection's run
/// returns.
@Suite("ControlConnection at shutdown")
struct ControlConnectionShutdownTests {
    /// A client that sends one request, stays connected and never reads: every write waits until the
    /// connection is closed, then fails. Like a socket's, the wait ignores the task's cancellation.
    final class DeafClient: TransportConnection {
        let inbound: AsyncThrowingStream<[UInt8], any Error>
        private let input: AsyncThrowingStream<[UInt8], any Error>.Continuation
        private let state = Mutex<(closed: Bool, writers: [CheckedContinuation<Void, Never>])>((false, []))
        /// Fires when a write starts waiting.
        let waiting = AsyncSignal()

        init(_ line: String) {
            (inbound, input) = AsyncThrowingStream.makeStream()
            input.yield(Array((line + "\n").utf8))
        }

        var isClosed: Bool { state.withLock { $0.closed } }

        func write(_ bytes: [UInt8]) async throws {
            await withCheckedContinuation { continuation in
                let closed = state.withLock { state in
                    if !state.closed { state.writers.append(continuation) }
                    return state.closed
                }
                if closed { continuation.resume() } else { waiting.fire() }
            }
            throw TransportError(.connectionClosed, "closed")
        }

        func close() async {
            let writers = state.withLock { state in
                state.closed = true
                defer { state.writers = [] }
                return state.writers
            }
            for writer in writers { writer.resume() }
            input.finish()
        }

        var description: String { "deaf client" }
    }

    struct Flood: FieldlessControlOperation {
        static let name = "flood"
    }

    @Test("cancelled while a stream's write waits on a client that does not read: the client is closed and the run returns")
    func cancelledWhileAWriteWaits() async throws {
        var router = ControlRouter()
        router.registerStream(Flood.self) { _, call in
            while await call.writer.send(.streamEvent(call.id, "tick", .object([:]))) {}
        }
        let client = DeafClient(#"{"id":1,"op":"flood"}"#)
        let connection = ControlConnection(id: 1, writer: ControlWriter(client))
        let seen = client.waiting.generation
        let ended = AsyncSignal()
        let run = Task {
            await connection.run(
                client, on: ExecutorIsolation(SocketEventLoop.next().serialExecutor), router: router,
                attached: {}, stopped: {})
            ended.fire()
        }
        await client.waiting.wait(after: seen)
        run.cancel()
        // Without the close on cancellation the write, and so the run, never ends.
        let returned = (try? await withTimeout { await ended.wait(after: 0) }) != nil
        if !returned { await client.close() }
        #expect(returned, "the connection's run did not return after its task was cancelled")
        #expect(client.isClosed)
    }
}
