import Synchronization
import WatchPairCore

/// One direction of an ``InMemoryConnection``: a bounded queue of written chunks and its single reader.
///
/// Bound: a write is admitted when the bytes not yet read plus the new bytes fit in `limit`, or when
/// nothing is unread (so one write larger than the limit still goes through). Otherwise the write
/// suspends, holding its bytes outside the queue, until the reader drains enough; suspended writes are
/// admitted first-come first-served, so byte order always follows call order.
///
/// Closing: the sending side's close (`closeWriting`) lets the reader drain what is queued and then
/// see end of stream; the receiving side's close (`closeReading`) discards what is queued and makes
/// every write fail. Either close fails the writes still suspended.
///
/// Every change (a write queued, a chunk read, the reader parking, a close) fires `activity`, so the
/// self-driving clock sees bytes move; ``isQuiet`` tells it when nothing is left for the reader.
final class BytePipe: Sendable {
    private struct PendingWrite {
        var id: UInt64
        var bytes: [UInt8]
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct SuspendedWriteWaiter {
        var count: Int
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var chunks: [[UInt8]] = []
        /// Index of the first unread chunk in `chunks` (compacted when the queue empties).
        var head = 0
        var unreadBytes = 0
        var pendingWrites: [PendingWrite] = []
        var reader: (id: UInt64, continuation: CheckedContinuation<[UInt8]?, Never>)?
        var suspendedWriteWaiters: [UInt64: SuspendedWriteWaiter] = [:]
        var writerClosed = false
        var readerClosed = false
        var nextID: UInt64 = 0

        mutating func makeID() -> UInt64 {
            nextID += 1
            return nextID
        }

        func admits(_ count: Int, limit: Int) -> Bool {
            unreadBytes == 0 || unreadBytes + count <= limit
        }

        mutating func enqueue(_ bytes: [UInt8]) {
            guard !bytes.isEmpty else { return }
            chunks.append(bytes)
            unreadBytes += bytes.count
        }

        mutating func dequeue() -> [UInt8]? {
            guard head < chunks.count else { return nil }
            let chunk = chunks[head]
            head += 1
            unreadBytes -= chunk.count
            if head == chunks.count {
                chunks.removeAll(keepingCapacity: true)
                head = 0
            }
            return chunk
        }
    }

    /// Continuations to resume once the lock is released.
    private struct Wakeups {
        var reader: (CheckedContinuation<[UInt8]?, Never>, [UInt8]?)?
        var admitted: [CheckedContinuation<Void, any Error>] = []
        var failed: [CheckedContinuation<Void, any Error>] = []
        var waiters: [CheckedContinuation<Void, Never>] = []

        func resume(failure: @autoclosure () -> TransportError) {
            if let reader { reader.0.resume(returning: reader.1) }
            admitted.forEach { $0.resume() }
            if !failed.isEmpty {
                let error = failure()
                failed.forEach { $0.resume(throwing: error) }
            }
            waiters.forEach { $0.resume() }
        }
    }

    private let state = Mutex(State())
    private let limit: Int
    /// Names the direction in error details, e.g. `in-memory phone→watch #1`.
    private let name: String
    /// Fired after every change (the network's, for the self-driving clock).
    private let activity: AsyncSignal?

    init(limit: Int, name: String, activity: AsyncSignal? = nil) {
        self.limit = limit
        self.name = name
        self.activity = activity
    }

    /// Nothing left for the reader to do: no bytes unread, no write suspended, and the reader is parked
    /// in `read()` (it has finished with the last chunk) or this direction is closed.
    var isQuiet: Bool {
        state.withLock { state in
            state.unreadBytes == 0 && state.pendingWrites.isEmpty && (state.reader != nil || state.readerClosed || state.writerClosed)
        }
    }

    /// Bytes written and not yet read.
    var unreadByteCount: Int { state.withLock { $0.unreadBytes } }

    /// Writes suspended because the pipe is full.
    var suspendedWriteCount: Int { state.withLock { $0.pendingWrites.count } }

    private var closedError: TransportError {
        TransportError(.connectionClosed, "write on \(name): the connection is closed")
    }

    /// Queues `bytes`, suspending while the pipe is full (see the type's bound).
    ///
    /// Throws `TransportError(.connectionClosed)` if either side has closed, and `CancellationError`
    /// if the task is cancelled while suspended, in which case none of `bytes` was queued.
    func write(_ bytes: [UInt8]) async throws {
        let id = state.withLock { $0.makeID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case done, closed, cancelled, suspended([CheckedContinuation<Void, Never>]) }
                var wakeups = Wakeups()
                let outcome: Outcome = state.withLock { state in
                    if state.writerClosed || state.readerClosed { return .closed }
                    if Task.isCancelled { return .cancelled }
                    if state.pendingWrites.isEmpty && state.admits(bytes.count, limit: limit) {
                        state.enqueue(bytes)
                        wakeups.reader = Self.feedReader(&state)
                        return .done
                    }
                    state.pendingWrites.append(PendingWrite(id: id, bytes: bytes, continuation: continuation))
                    let count = state.pendingWrites.count
                    let ready = state.suspendedWriteWaiters.filter { $0.value.count <= count }
                    for key in ready.keys { state.suspendedWriteWaiters[key] = nil }
                    return .suspended(ready.values.map(\.continuation))
                }
                wakeups.resume(failure: closedError)
                activity?.fire()
                switch outcome {
                case .done: continuation.resume()
                case .closed: continuation.resume(throwing: closedError)
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .suspended(let waiters): waiters.forEach { $0.resume() }
                }
            }
        } onCancel: {
            let pending = state.withLock { state -> PendingWrite? in
                guard let index = state.pendingWrites.firstIndex(where: { $0.id == id }) else { return nil }
                return state.pendingWrites.remove(at: index)
            }
            pending?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Queues `bytes` when that needs no waiting (open, nothing suspended before it, within the bound);
    /// false, queuing nothing, otherwise.
    func writeNow(_ bytes: [UInt8]) -> Bool {
        var wakeups = Wakeups()
        let written = state.withLock { state in
            guard !state.writerClosed, !state.readerClosed, state.pendingWrites.isEmpty,
                  state.admits(bytes.count, limit: limit) else { return false }
            state.enqueue(bytes)
            wakeups.reader = Self.feedReader(&state)
            return true
        }
        wakeups.resume(failure: closedError)
        activity?.fire()
        return written
    }

    /// The next chunk, or `nil` at end of stream (or when the reading task is cancelled).
    func read() async -> [UInt8]? {
        let id = state.withLock { $0.makeID() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[UInt8]?, Never>) in
                var wakeups = Wakeups()
                let immediate: [UInt8]?? = state.withLock { state in
                    precondition(state.reader == nil, "\(name): inbound has a single consumer")
                    if state.readerClosed { return .some(nil) }
                    if let chunk = state.dequeue() {
                        wakeups.admitted = Self.admitPending(&state, limit: limit)
                        return chunk
                    }
                    if state.writerClosed || Task.isCancelled { return .some(nil) }
                    state.reader = (id, continuation)
                    return nil
                }
                wakeups.resume(failure: closedError)
                activity?.fire()
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let reader = state.withLock { state -> CheckedContinuation<[UInt8]?, Never>? in
                guard let reader = state.reader, reader.id == id else { return nil }
                state.reader = nil
                return reader.continuation
            }
            reader?.resume(returning: nil)
        }
    }

    /// The sending side closed: the reader drains what is queued, then sees end of stream.
    func closeWriting() {
        var wakeups = Wakeups()
        state.withLock { state in
            guard !state.writerClosed else { return }
            state.writerClosed = true
            wakeups.failed = state.pendingWrites.map(\.continuation)
            state.pendingWrites.removeAll()
            if let reader = state.reader, state.head == state.chunks.count {
                state.reader = nil
                wakeups.reader = (reader.continuation, nil)
            }
        }
        wakeups.resume(failure: closedError)
        activity?.fire()
    }

    /// The receiving side closed: queued bytes are discarded, the reader sees end of stream, writes fail.
    func closeReading() {
        var wakeups = Wakeups()
        state.withLock { state in
            guard !state.readerClosed else { return }
            state.readerClosed = true
            state.chunks.removeAll()
            state.head = 0
            state.unreadBytes = 0
            wakeups.failed = state.pendingWrites.map(\.continuation)
            state.pendingWrites.removeAll()
            if let reader = state.reader {
                state.reader = nil
                wakeups.reader = (reader.continuation, nil)
            }
        }
        wakeups.resume(failure: closedError)
        activity?.fire()
    }

    /// Suspends until at least `count` writes are suspended on this pipe, or the calling task is cancelled.
    func waitForSuspendedWrites(count: Int) async {
        let id = state.withLock { $0.makeID() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if Task.isCancelled || state.pendingWrites.count >= count { return true }
                    state.suspendedWriteWaiters[id] = SuspendedWriteWaiter(count: count, continuation: continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.suspendedWriteWaiters.removeValue(forKey: id) }
            waiter?.continuation.resume()
        }
    }

    /// Hands the next chunk to a waiting reader, admitting suspended writes into the room it frees.
    private static func feedReader(_ state: inout State) -> (CheckedContinuation<[UInt8]?, Never>, [UInt8]?)? {
        guard let reader = state.reader, let chunk = state.dequeue() else { return nil }
        state.reader = nil
        return (reader.continuation, chunk)
    }

    /// Moves suspended writes into the queue, in order, while they fit.
    private static func admitPending(_ state: inout State, limit: Int) -> [CheckedContinuation<Void, any Error>] {
        var admitted: [CheckedContinuation<Void, any Error>] = []
        while let first = state.pendingWrites.first, state.admits(first.bytes.count, limit: limit) {
            state.pendingWrites.removeFirst()
            state.enqueue(first.bytes)
            admitted.append(first.continuation)
        }
        return admitted
    }
}
