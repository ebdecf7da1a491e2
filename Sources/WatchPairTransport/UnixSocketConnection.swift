import NIOCore
import Synchronization
import WatchPairCore

/// One established Unix-socket byte stream to the peer, accepted by `serve` or made by `connect()`.
///
/// Lifetime: NIO scopes an `NIOAsyncChannel` with `executeThenClose`, but the engine needs an object it
/// can pass around. So every connection lives inside an `executeThenClose` scope that ends only when
/// the channel is closed: for accepted connections that scope is the `serve` child task running the
/// handler (closed when the handler returns); for `connect()` it is a task owned by the connection
/// that just awaits the channel's `closeFuture`. Either way the channel closes on ``close()``, on peer
/// EOF or error, or when the last reference to the connection goes away (`deinit`), and the scope ends.
///
/// Inbound backpressure: NIO buffers at most `highWatermark` (10) reads of at most 64 KiB each
/// (NIO's adaptive receive allocator) and stops reading the socket until the consumer drains it to
/// `lowWatermark` (2); after that the kernel's socket buffer and the peer's writes block. ``inbound``
/// adds no buffer of its own: each `next()` pulls one read straight from NIO's iterator.
///
/// Writes bypass NIO's outbound writer and await `writeAndFlush`, so ``write(_:)`` returns once the
/// kernel has the bytes: a ``close()`` right after a write never drops them (NIO fails writes still
/// pending when a channel closes), and the number of writes in flight is bounded by the number of
/// concurrent callers (one per caller).
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

    init(
        channel: any Channel,
        inbound stream: NIOAsyncChannelInboundStream<ByteBuffer>,
        path: String,
        peerCredentials: PeerCredentials
    ) {
        self.channel = channel
        self.peerCredentials = peerCredentials
        let description = "unix:\(path) pid=\(peerCredentials.pid) uid=\(peerCredentials.uid)"
        self.description = description
        let reader = InboundReader(stream: stream, description: description)
        self.inbound = AsyncThrowingStream(unfolding: { try await reader.next() })
    }

    deinit {
        // A connection dropped without close() must not leak its socket (nor a connect() lifetime task).
        self.channel.close(promise: nil)
    }

    /// Writes all of `bytes`, in order with earlier writes, and returns once the kernel accepted them.
    ///
    /// Throws `TransportError(.connectionClosed)` after ``close()``, or when the peer is gone. Suspends
    /// while the peer does not read (the socket buffer is full); ``close()`` ends such a wait with an error.
    public func write(_ bytes: [UInt8]) async throws {
        guard !self.closed.withLock({ $0 }) else {
            throw TransportError(.connectionClosed, "write of \(bytes.count) bytes to \(self.description) after close()")
        }
        guard !bytes.isEmpty else { return }
        do {
            try await self.channel.writeAndFlush(ByteBuffer(bytes: bytes)).get()
        } catch {
            throw TransportError(.connectionClosed, "write of \(bytes.count) bytes to \(self.description) failed: \(error)")
        }
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
            self.channel.close(promise: nil)
        }
        // Never fails (NIO contract); wait so that after close() the descriptor is really gone.
        try? await self.channel.closeFuture.get()
    }
}

extension UnixSocketConnection {
    /// Wraps a connected channel whose lifetime no caller scopes (the `connect()` side).
    ///
    /// Starts the task that holds the channel's `executeThenClose` scope open until the channel closes;
    /// the task keeps only the channel, never the connection, so dropping the connection closes it.
    static func makeUnscoped(
        _ asyncChannel: NIOAsyncChannel<ByteBuffer, Never>,
        path: String,
        peerCredentials: PeerCredentials
    ) async -> UnixSocketConnection {
        await withCheckedContinuation { (continuation: CheckedContinuation<UnixSocketConnection, Never>) in
            Task {
                try? await asyncChannel.executeThenClose { inbound in
                    continuation.resume(
                        returning: UnixSocketConnection(
                            channel: asyncChannel.channel,
                            inbound: inbound,
                            path: path,
                            peerCredentials: peerCredentials
                        )
                    )
                    try? await asyncChannel.channel.closeFuture.get()
                }
            }
        }
    }
}

/// Pulls reads one at a time from NIO's inbound iterator for ``UnixSocketConnection/inbound``.
///
/// `@unchecked Sendable`: the iterator is touched only from `next()`, and `inbound` has a single consumer,
/// so calls never overlap (an overlapping call would trap on Swift's exclusivity check, not race).
private final class InboundReader: @unchecked Sendable {
    private let stream: NIOAsyncChannelInboundStream<ByteBuffer>
    private var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator?
    private let description: String

    init(stream: NIOAsyncChannelInboundStream<ByteBuffer>, description: String) {
        self.stream = stream
        self.description = description
    }

    func next() async throws -> [UInt8]? {
        if self.iterator == nil {
            self.iterator = self.stream.makeAsyncIterator()
        }
        do {
            while let buffer = try await self.iterator!.next() {
                if buffer.readableBytes > 0 {
                    return Array(buffer.readableBytesView)
                }
            }
            return nil
        } catch let error as CancellationError {
            throw error
        } catch {
            throw TransportError(.connectionClosed, "read from \(self.description) failed: \(error)")
        }
    }
}
