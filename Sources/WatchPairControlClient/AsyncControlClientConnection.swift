import WatchPairWire

/// An async client of a daemon's control socket, for tests and tools that run in Swift concurrency.
///
/// Why a thread per connection: Swift's cooperative pool has one thread per core (two on a small
/// machine). A task blocked in `connect`, `send`, `recv` or `poll` takes one of them away, and a daemon
/// under test in the same process needs them to answer, so a blocking client can deadlock it.
/// Non-blocking sockets alone would still need an event loop to wait on, and the package's one is NIO's,
/// which only WatchPairTransport imports. So each connection's socket is owned by a thread of its own
/// running the same core as wcctl and wcbench (``ControlClientConnection``); tasks only take a lock and await
/// a continuation (``AsyncConnectionThread``).
///
/// Lines are kept in arrival order until taken: ``next(where:)`` hands out the first that matches and
/// leaves the others for later calls, at most ``maxUnreadLines`` of them (then the connection ends with
/// `.tooManyUnreadLines`). A wait ends with `CancellationError` when its task is cancelled; other
/// failures are ``ControlClientError``s. The connection closes on ``close()`` or when released.
public final class AsyncControlClientConnection: Sendable {
    /// The most lines kept read and not taken.
    public static let maxUnreadLines = 1 << 16

    /// The control socket's path.
    public let path: String
    private let thread: AsyncConnectionThread

    private init(path: String, thread: AsyncConnectionThread) {
        self.path = path
        self.thread = thread
    }

    deinit { thread.stop() }

    /// Connects to the control socket at `path` (on the connection's own thread).
    ///
    /// - Throws: `.system` (``UnixStreamSocket/connect(path:)``).
    public static func connect(to path: String) async throws -> AsyncControlClientConnection {
        let thread = try AsyncConnectionThread(maxUnreadLines: maxUnreadLines)
        try await withCheckedThrowingContinuation { thread.start(path: path, connected: $0) }
        return AsyncControlClientConnection(path: path, thread: thread)
    }

    /// Connects to `path`, runs `body`, then closes the connection (also when `body` throws).
    public static func withConnection<Result>(
        to path: String, _ body: (AsyncControlClientConnection) async throws -> Result
    ) async throws -> Result {
        let connection = try await connect(to: path)
        do {
            let result = try await body(connection)
            await connection.close()
            return result
        } catch {
            await connection.close()
            throw error
        }
    }

    /// Closes the connection and waits until its thread has closed the socket. Writes still queued fail
    /// with `.closed`; later calls fail with `.closed` once the unread lines are taken.
    public func close() async {
        await withCheckedContinuation { (closed: CheckedContinuation<Void, Never>) in
            let finished = thread.state.withLock { state in
                if state.finished { return true }
                state.stopping = true
                state.closers.append(closed)
                return false
            }
            if finished { closed.resume() } else { thread.wake() }
        }
    }

    /// Writes `bytes` (whole lines, or anything a test wants the daemon to see); returns once the kernel
    /// has taken all of them.
    public func write(_ bytes: [UInt8]) async throws {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            let queued = thread.state.withLock { state in
                guard !state.stopping, !state.finished else { return false }
                state.writes.append(AsyncConnectionState.Write(bytes: bytes, done: done))
                return true
            }
            if queued { thread.wake() } else { done.resume(throwing: ControlClientError.closed) }
        }
    }

    /// Writes one request line, encoded by the request itself.
    ///
    /// - Throws: `.requestTooLong` over the daemon's limit (nothing is sent), else as ``write(_:)``.
    public func send(_ request: some ControlLine) async throws {
        try await write(ControlClientConnection.requestLine(request))
    }

    /// Sends `request` and waits for its response (``response(to:)``); `id` is the request's.
    public func call(_ request: some ControlLine, id: Int64) async throws -> ControlResponse {
        try await send(request)
        return try await response(to: id)
    }

    /// The response to request `id` (``ControlResponse/isResponse(to:soleRequest:)``), ok or not; lines
    /// read before it stay for later calls.
    public func response(to id: Int64) async throws -> ControlResponse {
        try await next { $0.isResponse(to: id) }
    }

    /// The first line, unread so far, that satisfies `predicate`, waiting for it as long as it takes.
    ///
    /// - Throws: how the connection ended (`.closed`: the daemon closed it) when no such line came.
    public func next(where predicate: (ControlResponse) -> Bool) async throws -> ControlResponse {
        while true {
            switch thread.state.withLock({ $0.take(where: predicate) }) {
            case .line(let line): return line
            case .ended(let end): throw end
            case .wait(let generation): try await waitForLines(after: generation)
            }
        }
    }

    /// Waits until the daemon closes the connection and returns the lines nobody took.
    ///
    /// - Throws: how the connection ended when that was not the daemon closing it.
    public func readToEnd() async throws -> [ControlResponse] {
        while true {
            let (lines, generation) = try thread.state.withLock { state throws(ControlClientError) in
                (try state.takeAll(), state.generation)
            }
            if let lines { return lines }
            try await waitForLines(after: generation)
        }
    }

    /// Returns after the next delivery of lines (or the end), at once if one came after `generation`.
    private func waitForLines(after generation: Int) async throws {
        let ticket = thread.state.withLock { state in
            state.lastTicket += 1
            return state.lastTicket
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (woken: CheckedContinuation<Void, Never>) in
                let now = thread.state.withLock { state in
                    // Checked under the lock: a cancellation handler that ran first found nothing to resume.
                    if state.generation != generation || Task.isCancelled { return true }
                    state.readers[ticket] = woken
                    return false
                }
                if now { woken.resume() }
            }
        } onCancel: {
            thread.state.withLock { $0.readers.removeValue(forKey: ticket) }?.resume()
        }
        try Task.checkCancellation()
    }
}
