import Synchronization

/// What a ``LoopBacklog`` decodes a byte stream with: the link's frames, the control socket's lines.
public protocol LoopDecoder: Sendable {
    /// What the stream carries, and what waits for the reader task.
    associatedtype Item: Sendable
    /// A stream that cannot be decoded past this point.
    associatedtype Failure: Error & Sendable & Equatable

    /// Adds `bytes` after what came before; the items they complete, then the failure that stops the
    /// stream, if one does (nothing is decoded after it).
    mutating func decode(_ bytes: [UInt8]) -> (items: [Item], failure: Failure?)
}

/// A connection's items between its socket's event loop and its reader task, when the connection hands
/// its reads over on the loop (``TransportConnection/readDirectly(on:_:)``). The loop decodes each read
/// and handles there, in place, the items that need no waiting while the task holds none; every other
/// item, and all behind it, waits here in arrival order for the task. So the task wakes only for what
/// must wait, and items are handled in the order of the stream.
///
/// Bound: after ``highWatermark`` reads queued here the loop pauses the socket until the task has taken
/// them (the kernel's buffer then fills and the peer's writes block).
///
/// A connection that cannot hand its reads over is fed by ``pump(_:into:on:)``, a task on the consumer's
/// executor that plays the loop's part, so a consumer has one way of reading either way
/// (``read(_:on:isolation:inPlace:serve:)``).
public final class LoopBacklog<Decoder: LoopDecoder>: Sendable {
    /// Reads queued for the task above which the socket is paused.
    static var highWatermark: Int { 10 }

    /// What the task takes at once: items in order, then the stream's failure or its end.
    struct Batch: Sendable {
        var items: [Decoder.Item]
        var failure: Decoder.Failure?
        var end: Result<Void, TransportError>?
    }

    /// Items decoded from one read, and whether the loop may handle them itself.
    struct Decoded {
        var items: [Decoder.Item]
        var failure: Decoder.Failure?
        /// Nothing waits for the task and it holds nothing: the loop may handle items in place.
        var idle: Bool
    }

    private struct State: Sendable {
        var decoder: Decoder
        var waiting = Batch(items: [])
        /// The task took items and has not finished them: the loop queues behind them.
        var taken = false
        /// The task stopped reading: reads are dropped.
        var stopped = false
        /// Reads queued since the task last took; at ``highWatermark`` the socket is paused.
        var readsQueued = 0

        var isEmpty: Bool { waiting.items.isEmpty && waiting.failure == nil && waiting.end == nil }
    }

    private let state: Mutex<State>
    /// Fires when something is queued for the task.
    private let queued = AsyncSignal()
    /// Fires when the task took what paused the socket, or stopped reading (for ``pump(_:into:on:)``).
    private let resumed = AsyncSignal()

    /// A backlog for a connection's reads, decoded with `decoder`. It holds no connection: the connection
    /// holds it (through ``directReads(handle:)``) until the input ends.
    public init(decoder: Decoder) {
        self.state = Mutex(State(decoder: decoder))
    }

    /// Decodes `bytes` after what came before (on the loop); nil once the task stopped reading or the
    /// stream failed.
    func decode(_ bytes: [UInt8]) -> Decoded? {
        state.withLock { state -> Decoded? in
            guard !state.stopped, state.waiting.failure == nil else { return nil }
            let (items, failure) = state.decoder.decode(bytes)
            return Decoded(items: items, failure: failure, idle: !state.taken && state.isEmpty)
        }
    }

    /// Queues for the task what the loop did not handle: the items from the first it could not, then
    /// the failure; false when the socket is to pause until the task took them.
    func queue(_ items: ArraySlice<Decoder.Item>, failure: Decoder.Failure? = nil) -> Bool {
        let keepReading = state.withLock { state in
            state.waiting.items += items
            state.waiting.failure = state.waiting.failure ?? failure
            state.readsQueued += 1
            return state.readsQueued < Self.highWatermark
        }
        queued.fire()
        return keepReading
    }

    /// The input ended; from any thread, possibly inside the call that closed the connection, so it only
    /// records and wakes.
    func ended(_ end: Result<Void, TransportError>) {
        state.withLock { $0.waiting.end = $0.waiting.end ?? end }
        queued.fire()
    }

    /// Everything queued, waiting until there is some; nil when the calling task is cancelled. The loop
    /// queues behind it until ``finished()``. Reading `connection` resumes if the backlog had paused it.
    func take(resuming connection: any TransportConnection) async -> Batch? {
        while !Task.isCancelled {
            let seen = queued.generation
            let (batch, resume) = state.withLock { state -> (Batch?, Bool) in
                guard !state.isEmpty else { return (nil, false) }
                defer {
                    state.waiting = Batch(items: [])
                    state.taken = true
                    state.readsQueued = 0
                }
                return (state.waiting, state.readsQueued >= Self.highWatermark)
            }
            if resume {
                connection.resumeReading()
                resumed.fire()
            }
            if let batch { return batch }
            await queued.wait(after: seen)
        }
        return nil
    }

    /// The task has handled what it took: the loop handles items in place again while nothing is queued.
    func finished() {
        state.withLock { $0.taken = false }
    }

    /// The task stopped reading: later reads are dropped.
    func stop() {
        state.withLock { $0.stopped = true }
        resumed.fire()
    }

    /// How a connection's reads ended for its reader task (``read(_:on:isolation:inPlace:serve:)``).
    public enum End: Sendable, Equatable {
        /// The consumer stopped reading: `serve` returned false, or the task was cancelled.
        case stopped
        /// The stream cannot be decoded past this failure; every item before it was served.
        case failed(Decoder.Failure)
        /// The input ended cleanly; ``decoder`` holds what it had not completed.
        case closed
        /// The connection broke, or was closed under the reader.
        case broken(TransportError)
    }

    /// Reads `connection` through this backlog until its input ends or the consumer stops. The reads go
    /// to the socket's loop on `executor`, where `inPlace` takes what needs no waiting
    /// (``directReads(handle:)``); a connection that cannot hand them over is pumped on `isolation`
    /// instead (``pump(_:into:on:)``). `serve` takes, in the calling task and in order, each batch left
    /// for it; false stops reading. The backlog is stopped when this returns.
    public func read(
        _ connection: any TransportConnection, on executor: any SerialExecutor, isolation: isolated any Actor,
        inPlace: @escaping @Sendable (inout Decoder.Item) -> Bool,
        serve: ([Decoder.Item]) async -> Bool
    ) async -> End {
        let reads = directReads(handle: inPlace)
        return await withDiscardingTaskGroup { pumps -> End in
            if !connection.readDirectly(on: executor, reads) {
                let inbound = connection.inbound
                pumps.addTask { await self.pump(inbound, into: reads, on: isolation) }
            }
            defer {
                stop()
                pumps.cancelAll()
            }
            while let batch = await take(resuming: connection) {
                // Items before a failure are good: served first.
                guard await serve(batch.items) else { return .stopped }
                if let failure = batch.failure { return .failed(failure) }
                switch batch.end {
                case .none: finished()
                case .success: return .closed
                case .failure(let error): return .broken(error)
                }
            }
            return .stopped
        }
    }

    /// Feeds `inbound` to `reads` as a socket's loop would, for a connection that cannot hand its reads
    /// over (``TransportConnection/readDirectly(on:_:)`` false), on `isolation`, the actor whose executor
    /// `reads` handles items in place on. In a task of its own: it waits while the backlog is paused, and
    /// ends at the input's end, when the reader task stopped reading, or when cancelled.
    func pump(
        _ inbound: AsyncThrowingStream<[UInt8], any Error>, into reads: DirectReads, on isolation: isolated any Actor
    ) async {
        do {
            for try await bytes in inbound {
                let seen = resumed.generation
                guard !reads.received(bytes) else { continue }
                guard !state.withLock({ $0.stopped }) else { return }
                await resumed.wait(after: seen)
            }
            // A cancelled pump's reader has gone: the input did not end, and nobody waits for its end.
            guard !Task.isCancelled else { return }
            reads.ended(.success(()))
        } catch {
            reads.ended(.failure(error as? TransportError ?? TransportError(.connectionClosed, "\(error)")))
        }
    }

    /// The decoder as the stream left it (at its end: what it still holds).
    public var decoder: Decoder { state.withLock { $0.decoder } }

    /// The handlers of a backlog's reads on the loop, for ``TransportConnection/readDirectly(on:_:)``:
    /// each read is decoded, `handle` takes the items in place while the task holds none (true: handled;
    /// false: from this item on they wait for the task, the first as `handle` left it, e.g. with what it
    /// already read from it), and the rest is queued.
    func directReads(handle: @escaping @Sendable (inout Decoder.Item) -> Bool) -> DirectReads {
        DirectReads(
            received: { [self] bytes in
                guard var decoded = decode(bytes) else { return false }
                var index = decoded.items.startIndex
                if decoded.idle {
                    while index < decoded.items.endIndex, handle(&decoded.items[index]) { index += 1 }
                }
                guard index < decoded.items.endIndex || decoded.failure != nil else { return true }
                return queue(decoded.items[index...], failure: decoded.failure)
            },
            ended: { [self] in ended($0) })
    }
}
