import NIOCore
import Synchronization
import WatchPairCore

/// One established Unix-socket byte stream to the peer, accepted by `serve` or made by `connect()`.
///
/// Lifetime: the channel closes on ``close()``, on peer EOF or error, or when the last reference to the
/// connection goes away (`deinit`); nothing else holds it open.
///
/// Inbound backpressure: at most ten reads of at most 64 KiB each (NIO's adaptive receive allocator)
/// wait for the consumer; above that the socket is not read until the consumer drains to two
/// (``InboundReads``); after that the kernel's socket buffer and the peer's writes block.
///
/// Outbound bounds: a write is handed to NIO (`writeAndFlush`) and ``write(_:)`` returns at once while
/// fewer than ``pendingLimit`` (64 KiB) written bytes wait for the kernel (counted here, not read from
/// the channel's writability, which lags behind writes made off its event loop); above it, each write
/// waits until the kernel took its bytes. So what is buffered here is at most the limit plus one write per
/// concurrent caller, and a lone request/reply costs no thread hop to learn that its write completed
/// (waiting for every write made a message round trip slower). A failed write is reported by the next
/// ``write(_:)``. Bytes written before ``close()`` go to the kernel
/// before the close (NIO runs both in order); what the kernel cannot take then is dropped, so a graceful
/// close calls ``flush()`` first.
///
/// Writes made on the channel's event loop are flushed once per loop tick, not one by one: the first
/// such write schedules one flush behind the jobs already queued on the loop, and every write made
/// before it runs goes out with it, in one `writev`. So the responses and frames of many requests in
/// flight cost one system call per tick instead of one each, while a lone write waits only for the
/// jobs queued ahead of it, on the same thread. Writes from other threads are flushed at once, as NIO
/// runs them on the loop after the writes before them; order is always the order of the calls.
public final class UnixSocketConnection: TransportConnection {
    /// Bytes as they arrive, in order (one element per socket read). Finishes at EOF or after ``close()``;
    /// throws `TransportError(.connectionClosed)` on a socket error. Single consumer.
    public let inbound: AsyncThrowingStream<[UInt8], any Error>
    /// The kernel's view of the peer (`SO_PEERCRED`), already checked against the allowed uids.
    public let peerCredentials: PeerCredentials
    /// `unix:<path> pid=<pid> uid=<uid>`.
    public let description: String

    private let channel: any Channel
    private let closed = Mutex(false)
    /// The first write that failed, reported by the writes after it.
    private let writeFailure = Mutex<String?>(nil)
    /// Written bytes the kernel has not taken yet.
    private let pendingBytes = Atomic<Int>(0)
    /// Whether a flush of the writes made on the loop is scheduled.
    private let flushScheduled = FlushFlag()

    /// Above this many pending bytes, writes wait for the kernel (NIO's default high-water mark).
    static let pendingLimit = 64 * 1024

    /// Reads waiting for the consumer now (tests check the back-pressure bound).
    package var bufferedReads: Int { reads.buffered }

    private let reads: InboundReads

    init(channel: any Channel, reads: InboundReads, path: String, peerCredentials: PeerCredentials) {
        self.channel = channel
        self.reads = reads
        self.peerCredentials = peerCredentials
        self.description = "unix:\(path) pid=\(peerCredentials.pid) uid=\(peerCredentials.uid)"
        self.inbound = AsyncThrowingStream(unfolding: { try await reads.next() })
    }

    deinit {
        // A connection dropped without close() must not leak its socket (nor a connect() lifetime task);
        // what it wrote still goes first, as with close().
        self.channel.flush()
        self.channel.close(promise: nil)
    }

    /// Writes all of `bytes`, in order with earlier writes; see the type's outbound bounds.
    ///
    /// Throws `TransportError(.connectionClosed)` after ``close()``, when the peer is gone, or when an
    /// earlier write failed. Suspends while the peer does not read and NIO holds more than its high-water
    /// mark; ``close()`` ends such a wait with an error.
    public func write(_ bytes: [UInt8]) async throws {
        try self.checkUsable(writing: bytes.count)
        guard !bytes.isEmpty else { return }
        let written = self.enqueue(bytes)
        guard self.pendingBytes.load(ordering: .relaxed) > Self.pendingLimit else { return }
        do {
            try await written.get()
        } catch {
            throw TransportError(.connectionClosed, "write of \(bytes.count) bytes to \(self.description) failed: \(error)")
        }
    }

    /// Writes `bytes` when they fit under ``pendingLimit`` (or nothing is pending) and the connection is
    /// usable; false, writing nothing, otherwise.
    public func writeNow(_ bytes: [UInt8]) -> Bool {
        let pending = self.pendingBytes.load(ordering: .relaxed)
        guard pending == 0 || pending + bytes.count <= Self.pendingLimit,
              (try? self.checkUsable(writing: bytes.count)) != nil else { return false }
        if !bytes.isEmpty { _ = self.enqueue(bytes) }
        return true
    }

    /// Waits until every write so far completed or failed; cancelling closes the connection (which fails
    /// the writes still pending, ending the wait).
    public func flush() async {
        // An empty write completes after every write before it (NIO completes writes in order).
        let channel = self.channel
        let marker = channel.eventLoop.makePromise(of: Void.self)
        channel.writeAndFlush(ByteBuffer(), promise: marker)
        await withTaskCancellationHandler {
            _ = try? await marker.futureResult.get()
        } onCancel: {
            channel.close(promise: nil)
        }
    }

    private func checkUsable(writing count: Int) throws {
        guard !self.closed.withLock({ $0 }) else {
            throw TransportError(.connectionClosed, "write of \(count) bytes to \(self.description) after close()")
        }
        guard self.channel.isActive else {
            throw TransportError(.connectionClosed, "write of \(count) bytes to \(self.description): the connection is closed")
        }
        if let failure = self.writeFailure.withLock({ $0 }) {
            throw TransportError(.connectionClosed, "write of \(count) bytes to \(self.description): an earlier write failed: \(failure)")
        }
    }

    /// Hands `bytes` to NIO; the future completes when the kernel took them, or fails.
    private func enqueue(_ bytes: [UInt8]) -> EventLoopFuture<Void> {
        let promise = self.channel.eventLoop.makePromise(of: Void.self)
        let count = bytes.count
        self.pendingBytes.add(count, ordering: .relaxed)
        let channel = self.channel
        if channel.eventLoop.inEventLoop {
            channel.write(ByteBuffer(bytes: bytes), promise: promise)
            if self.flushScheduled.schedule() {
                let flag = self.flushScheduled
                channel.eventLoop.execute {
                    flag.clear()
                    channel.flush()
                }
            }
        } else {
            channel.writeAndFlush(ByteBuffer(bytes: bytes), promise: promise)
        }
        // Weak: a write the peer never takes must not keep the connection (and so its socket) alive.
        promise.futureResult.whenComplete { [weak self] result in
            guard let self else { return }
            self.pendingBytes.subtract(count, ordering: .relaxed)
            if case .failure(let error) = result {
                self.writeFailure.withLock { $0 = $0 ?? "\(error)" }
            }
        }
        return promise.futureResult
    }

    /// Hands the reads to `reads` on the channel's loop when `executor` is that loop and this is its thread
    /// (``InboundReads/install(_:)``); see ``TransportConnection/readDirectly(on:_:)``.
    public func readDirectly(on executor: any SerialExecutor, _ reads: DirectReads) -> Bool {
        guard let loop = executor as? any EventLoop, loop === channel.eventLoop, loop.inEventLoop else { return false }
        self.reads.install(reads)
        return true
    }

    /// Reads the socket again after the direct consumer paused it.
    public func resumeReading() {
        reads.resumeDirect()
    }

    /// Whether this connection's socket runs on `loop` (tests check that a host's sockets share one).
    func runs(on loop: SocketEventLoop) -> Bool {
        self.channel.eventLoop === loop.eventLoop
    }

    /// Closes both directions: further writes throw, ``inbound`` finishes after what was already read.
    ///
    /// Idempotent; returns once the socket is closed.
    public func close() async {
        let first = self.closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if first {
            // Writes still waiting for their tick's flush go to the kernel before the close.
            self.channel.flush()
            self.channel.close(promise: nil)
        }
        // Never fails (NIO contract); wait so that after close() the descriptor is really gone.
        try? await self.channel.closeFuture.get()
    }
}

/// Whether a connection's tick flush is scheduled: set by the write that schedules it, cleared by the
/// flush when it runs (both on the channel's loop; atomic so the type is plainly `Sendable`).
private final class FlushFlag: Sendable {
    private let scheduled = Atomic<Bool>(false)

    /// Marks a flush scheduled; true when none was, so the caller schedules it.
    func schedule() -> Bool {
        !self.scheduled.exchange(true, ordering: .relaxed)
    }

    func clear() {
        self.scheduled.store(false, ordering: .relaxed)
    }
}
