import Synchronization
import WatchPairCore

/// One end of an in-memory byte pipe: what ``InMemoryTransport`` hands to both sides of a connection.
///
/// Each ``write(_:)`` arrives at the other end as one `inbound` element, in call order (empty writes
/// deliver nothing). Nothing is ever lost or reordered unless the connection is closed.
///
/// Bound: each direction holds at most ``bufferLimit`` unread bytes. A write that would take the unread
/// bytes past it suspends until the reader has read enough; a write into an empty direction always goes
/// through, so a single write larger than the limit cannot deadlock (the bound is then that one write).
///
/// Closing either end (``close()``, or ``InMemoryNetwork/dropAllConnections()``): the other end's
/// `inbound` yields what was already written and then finishes; this end's `inbound` finishes at once
/// (unread bytes are discarded); writes on either end, including ones suspended by the bound, throw
/// `TransportError(.connectionClosed, …)`. Closing is idempotent.
public final class InMemoryConnection: TransportConnection {
    /// The most bytes one direction holds unread before writers suspend: 1 MiB.
    public static let bufferLimit = 1 << 20

    /// Bytes written by the other end, one element per write, in order.
    ///
    /// Finishes at end of stream (either end closed) or when the consuming task is cancelled. Never
    /// throws. Single consumer.
    public let inbound: AsyncThrowingStream<[UInt8], any Error>

    /// Names the connection for logs, e.g. `in-memory phone→watch #1 (client end)`.
    public let description: String

    private let incoming: BytePipe
    private let outgoing: BytePipe
    private let link: Link

    /// State shared by both ends: whether the connection is closed, and who to tell when it closes.
    final class Link: Sendable {
        private let closed = Mutex(false)
        private let onClose: @Sendable () -> Void

        init(onClose: @escaping @Sendable () -> Void) {
            self.onClose = onClose
        }

        var isClosed: Bool { closed.withLock { $0 } }

        /// Marks the connection closed; runs `onClose` the first time only.
        func markClosed() {
            let first = closed.withLock { closed in
                defer { closed = true }
                return !closed
            }
            if first { onClose() }
        }
    }

    private init(incoming: BytePipe, outgoing: BytePipe, link: Link, description: String) {
        self.incoming = incoming
        self.outgoing = outgoing
        self.link = link
        self.description = description
        self.inbound = AsyncThrowingStream(unfolding: { await incoming.read() })
    }

    /// Creates two connected ends: bytes written to one arrive at the other.
    ///
    /// `name` prefixes each end's ``description``. `onClose` runs once, when either end first closes.
    /// `activity` fires after every change of either direction.
    static func makePair(
        name: String,
        clientSuffix: String = "client end",
        serverSuffix: String = "server end",
        activity: AsyncSignal? = nil,
        onClose: @escaping @Sendable () -> Void = {}
    ) -> (client: InMemoryConnection, server: InMemoryConnection) {
        let toServer = BytePipe(limit: bufferLimit, name: name, activity: activity)
        let toClient = BytePipe(limit: bufferLimit, name: name, activity: activity)
        let link = Link(onClose: onClose)
        let client = InMemoryConnection(
            incoming: toClient, outgoing: toServer, link: link, description: "\(name) (\(clientSuffix))")
        let server = InMemoryConnection(
            incoming: toServer, outgoing: toClient, link: link, description: "\(name) (\(serverSuffix))")
        return (client, server)
    }

    /// Creates two connected ends outside any ``InMemoryNetwork``, e.g. to test a codec over a pipe.
    ///
    /// Same semantics as a networked connection; `name` prefixes each end's ``description``.
    public static func pair(name: String = "in-memory pipe") -> (InMemoryConnection, InMemoryConnection) {
        let ends = makePair(name: name, clientSuffix: "end A", serverSuffix: "end B")
        return (ends.client, ends.server)
    }

    /// Queues `bytes` for the other end, suspending while its direction is full (see the type's bound).
    ///
    /// Throws `TransportError(.connectionClosed, …)` if either end has closed (also when the close
    /// happens while suspended), and `CancellationError` if cancelled while suspended (nothing is sent).
    public func write(_ bytes: [UInt8]) async throws {
        try await outgoing.write(bytes)
    }

    /// Queues `bytes` for the other end when that needs no waiting (within the bound, no write suspended
    /// before it, both ends open); false, queuing nothing, otherwise.
    public func writeNow(_ bytes: [UInt8]) -> Bool {
        outgoing.writeNow(bytes)
    }

    /// Closes both directions; see the type's closing rules. Idempotent.
    public func close() async {
        closeNow()
    }

    /// Synchronous ``close()``, for ``InMemoryNetwork/dropAllConnections()``.
    func closeNow() {
        outgoing.closeWriting()
        incoming.closeReading()
        link.markClosed()
    }

    /// Whether either end has closed.
    public var isClosed: Bool { link.isClosed }

    /// Nothing waits for this end's reader: see `BytePipe.isQuiet`.
    var isInboundQuiet: Bool { incoming.isQuiet }

    /// Bytes the other end has written that this end has not read yet.
    public var bufferedInboundByteCount: Int { incoming.unreadByteCount }

    /// Writes on this end currently suspended because the other end has not read enough.
    public var suspendedWriteCount: Int { outgoing.suspendedWriteCount }

    /// Suspends until at least `count` writes on this end are suspended by the buffer bound.
    ///
    /// Lets a test see backpressure happen without sleeping. Returns early if the calling task is cancelled.
    public func waitForSuspendedWrites(count: Int = 1) async {
        await outgoing.waitForSuspendedWrites(count: count)
    }
}
