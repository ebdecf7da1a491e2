import NIOCore
import Synchronization
import WatchPairCore

/// A socket's reads for its one consumer, handed over by a plain channel handler.
///
/// Why not `NIOAsyncChannel`: its inbound producer (a state machine, a lock and a back-pressure
/// strategy between the pipeline and the reading task) was 30% of a daemon's NIO samples per message
/// (BENCHMARKS.md, "Where each microsecond goes"). Here the handler resumes the waiting reader itself:
/// one lock and, when the reader waits, one continuation per read.
///
/// Back-pressure as before: at most ``highWatermark`` reads wait for the consumer; above that the
/// handler holds back the pipeline's `read()` (so the kernel's buffer fills and the peer's writes
/// block), and the consumer asks for the next read once it has drained to ``lowWatermark``.
///
/// The input ends at end of file, at half-closure (`inputClosed`) and when the channel goes inactive;
/// a socket error ends it with `TransportError(.connectionClosed)`, after the reads before it. A
/// reading task that is cancelled gets nil, and the channel is closed.
///
/// A consumer on the channel's event loop may take the reads there instead, as the handler gets them
/// (``install(_:)``): then no task is resumed per read, and the consumer pauses the socket itself.
final class InboundReads: Sendable {
    /// Reads waiting for the consumer above which the socket is not read.
    static let highWatermark = 10
    /// Reads waiting at or below which a held-back read is asked for again.
    static let lowWatermark = 2

    private struct State {
        var reads: [[UInt8]] = []
        /// The first read not yet taken (a moving head, compacted when half the array is taken).
        var head = 0
        /// How the input ended, once it has.
        var end: Result<Void, TransportError>?
        var waiter: CheckedContinuation<[UInt8]?, Never>?
        /// The handler held back a `read()`: the consumer asks for it when it has drained.
        var readHeld = false
        /// The consumer that takes each read on the loop, once installed.
        var direct: DirectReads?
        /// The direct consumer paused reading; ``resumeDirect()`` counts in `resumes`, so a resume that
        /// comes while a read is being handed over is not lost.
        var directPaused = false
        var resumes: UInt64 = 0

        var buffered: Int { reads.count - head }

        mutating func take() -> [UInt8] {
            let read = reads[head]
            reads[head] = []
            head += 1
            if head == reads.count {
                reads.removeAll(keepingCapacity: true)
                head = 0
            } else if head * 2 >= reads.count {
                reads.removeFirst(head)
                head = 0
            }
            return read
        }
    }

    private let state = Mutex(State())
    private let channel: any Channel
    let description: String

    init(channel: any Channel, description: String) {
        self.channel = channel
        self.description = description
    }

    /// Reads waiting for the consumer now.
    var buffered: Int { state.withLock { $0.buffered } }

    /// The pipeline handler that feeds this value; add it to the channel before it becomes active.
    func makeHandler() -> Handler { Handler(reads: self) }

    /// The next read, nil once the input ended cleanly (or the caller was cancelled); throws
    /// `TransportError(.connectionClosed)` after a socket error. Single consumer.
    func next() async throws -> [UInt8]? {
        while true {
            let (polled, askForRead) = state.withLock { state -> (Result<[UInt8]?, TransportError>?, Bool) in
                if state.buffered > 0 { return (.success(state.take()), Self.drained(&state)) }
                return (state.end.map { $0.map { nil } }, false)
            }
            if askForRead { channel.read() }
            if let polled { return try polled.get() }
            if Task.isCancelled { return nil }
            // The handler hands the next read straight to the waiter, or wakes it (nil) to look again.
            if let read = await waitForRead() { return read }
        }
    }

    /// Waits until the handler has a read for the consumer (returned), or something else to look at: the
    /// end of the input, a read that came before the wait began, cancellation (nil).
    private func waitForRead() async -> [UInt8]? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[UInt8]?, Never>) in
                let waiting = state.withLock { state -> Bool in
                    guard !Task.isCancelled, state.buffered == 0, state.end == nil else { return false }
                    state.waiter = continuation
                    return true
                }
                if !waiting { continuation.resume(returning: nil) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
            // A reader that stops reading leaves nobody to drain the socket: close it, as NIO's own
            // async channel does when its reader goes away.
            channel.close(promise: nil)
        }
    }

    /// Whether a held-back read should be asked for now that the consumer took one.
    private static func drained(_ state: inout State) -> Bool {
        guard state.readHeld, state.buffered <= lowWatermark else { return false }
        state.readHeld = false
        return true
    }

    // MARK: A consumer on the loop

    /// Hands every read from now on to `direct` as the handler gets it, the reads buffered so far first,
    /// then the end if it came. Call it on the channel's event loop, once.
    func install(_ direct: DirectReads) {
        let (buffered, end) = state.withLock { state in
            // Kept only while reads may come: the consumer's closures may hold what holds this connection.
            if state.end == nil { state.direct = direct }
            let buffered = Array(state.reads[state.head...])
            state.reads.removeAll()
            state.head = 0
            return (buffered, state.end)
        }
        for read in buffered { deliver(read, to: direct) }
        if let end { direct.ended(end) }
        // Held back for the buffered reads, which are taken now: unless the consumer paused, read on.
        let readOn = state.withLock { state in
            guard state.readHeld, !state.directPaused else { return false }
            state.readHeld = false
            return true
        }
        if readOn { channel.read() }
    }

    /// Reads the socket again after the direct consumer paused it; from any thread.
    func resumeDirect() {
        let read = state.withLock { state -> Bool in
            state.resumes &+= 1
            state.directPaused = false
            defer { state.readHeld = false }
            return state.readHeld
        }
        if read { channel.read() }
    }

    private func deliver(_ read: [UInt8], to direct: DirectReads) {
        let resumes = state.withLock { $0.resumes }
        guard !direct.received(read) else { return }
        state.withLock { state in
            if state.resumes == resumes { state.directPaused = true }
        }
    }

    // MARK: The handler's side (on the channel's event loop)

    fileprivate func received(_ bytes: [UInt8]) {
        let (waiter, direct) = state.withLock { state -> (CheckedContinuation<[UInt8]?, Never>?, DirectReads?) in
            guard state.end == nil else { return (nil, nil) }
            if let direct = state.direct { return (nil, direct) }
            if let waiter = state.waiter {
                state.waiter = nil
                return (waiter, nil)
            }
            state.reads.append(bytes)
            return (nil, nil)
        }
        if let direct { deliver(bytes, to: direct) }
        waiter?.resume(returning: bytes)
    }

    fileprivate func ended(_ end: Result<Void, TransportError>) {
        let (waiter, direct) = state.withLock { state -> (CheckedContinuation<[UInt8]?, Never>?, DirectReads?) in
            guard state.end == nil else { return (nil, nil) }
            state.end = end
            // Reads already buffered are still taken first; a waiter means there are none. The direct
            // consumer is let go: nothing comes after the end, and its closures may hold this connection.
            defer {
                state.waiter = nil
                state.direct = nil
            }
            return (state.waiter, state.direct)
        }
        // Woken to look again: it finds the end.
        waiter?.resume(returning: nil)
        direct?.ended(end)
    }

    /// Whether the pipeline's `read()` may go to the socket now; when not, it is remembered.
    fileprivate func mayRead() -> Bool {
        state.withLock { state in
            guard state.buffered >= Self.highWatermark || state.directPaused else { return true }
            state.readHeld = true
            return false
        }
    }

    /// Feeds ``InboundReads`` from the pipeline and applies its back-pressure to `read()`.
    final class Handler: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private let reads: InboundReads

        fileprivate init(reads: InboundReads) {
            self.reads = reads
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            guard buffer.readableBytes > 0 else { return }
            reads.received(Array(buffer.readableBytesView))
        }

        func read(context: ChannelHandlerContext) {
            if reads.mayRead() { context.read() }
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case .inputClosed = event as? ChannelEvent { reads.ended(.success(())) }
            context.fireUserInboundEventTriggered(event)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            reads.ended(.failure(TransportError(.connectionClosed, "read from \(reads.description) failed: \(error)")))
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            reads.ended(.success(()))
            context.fireChannelInactive()
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            reads.ended(.success(()))
        }
    }
}
