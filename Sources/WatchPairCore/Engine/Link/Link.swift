import Synchronization
import WatchPairWire

/// One connection to the peer, from its first byte to its close, and what the engine knows about it.
///
/// The reader loop, the control writer, the keep-alive and the message handlers of a link run as children
/// of one task group, so closing a link ends them all. Counters are lock-protected because the keep-alive
/// reads them without hopping onto the engine actor.
///
/// The reader never waits for the socket to take a write: if both sides' readers did (an ack, a pong, a
/// contextAck sent inline), two full send buffers would stop both links for good. Control frames are
/// posted instead and written by ``writeControlFrames()``, coalesced, so what waits is bounded by three
/// values, not by how much the peer sends.
final class Link: Sendable, CustomStringConvertible {
    let id: UInt64
    let connection: any TransportConnection
    /// Which side opened the connection; decides which of two simultaneous links survives.
    let initiator: Role
    /// Completes with true when the handshake succeeds, false when the link closes before that.
    let established = OneShot<Bool>()

    private struct State {
        var peerHello: Hello?
        /// The launch mode this side last told the peer on this link (its hello, then `launch` frames).
        var announcedLaunch: LaunchMode?
        var framesReceived: UInt64 = 0
        var open = true
        /// A last frame is on its way (``sendLast(_:)``): nothing else may follow it on the stream.
        var closing = false
        var closeReason: CloseReason?
        var control = PendingControl()
    }

    private let state = Mutex(State())
    private let controlPosted = AsyncSignal()

    init(id: UInt64, connection: any TransportConnection, initiator: Role) {
        self.id = id
        self.connection = connection
        self.initiator = initiator
    }

    var description: String { "link#\(id) (opened by \(initiator.rawValue); \(connection.description))" }

    /// Encodes and writes one frame (one write call per frame). Throws once the link is closing: a
    /// link-level error is the last frame the peer reads (docs/WireFormat.md).
    func send(_ frame: Frame) async throws {
        try checkNotClosing()
        try await connection.write(FrameEncoder.encode(frame))
    }

    /// Encodes and writes one frame if the connection takes it without waiting (`writeNow`); false otherwise,
    /// and always once the link is closing.
    func sendNow(_ frame: Frame) -> Bool {
        guard !isClosing else { return false }
        return connection.writeNow(FrameEncoder.encode(frame))
    }

    /// Marks the link closing: from now on only ``sendLast(_:)`` writes. A write that already began went to
    /// the connection before this (writes are enqueued before they wait), so it precedes the last frame.
    func beginClosing() {
        state.withLock { $0.closing = true }
    }

    /// Writes one of the frames that end the link (what the reader posted, then the error), after
    /// ``beginClosing()``.
    func sendLast(_ frame: Frame) async throws {
        try await connection.write(FrameEncoder.encode(frame))
    }

    var isClosing: Bool { state.withLock { $0.closing } }

    private func checkNotClosing() throws {
        if isClosing { throw TransportError(.connectionClosed, "\(self) is closing: a last frame was sent") }
    }

    /// About the most bytes of encoded frames the outbox pump hands to one write call.
    static let maxCoalescedBytes = 256 * 1024

    /// Writes frames encoded together, in one write call; throws once the link is closing.
    func send(_ frames: EncodedFrames) async throws {
        try checkNotClosing()
        try await connection.write(frames.bytes)
    }

    /// Queues a control frame for ``writeControlFrames()`` without waiting for the socket.
    func post(_ control: ControlFrame) {
        state.withLock { $0.control.merge(control) }
        controlPosted.fire()
    }

    /// Takes the posted control frames that are not written yet.
    func takeControlFrames() -> [Frame] {
        state.withLock { state in
            defer { state.control = PendingControl() }
            return state.control.frames
        }
    }

    /// Writes posted control frames until the link closes or the task is cancelled.
    func writeControlFrames() async {
        while !Task.isCancelled {
            let seen = controlPosted.generation
            let frames = takeControlFrames()
            if frames.isEmpty {
                guard isOpen else { return }
                await controlPosted.wait(after: seen)
                continue
            }
            for frame in frames {
                do {
                    try await send(frame)
                } catch {
                    return
                }
            }
        }
    }

    /// Closes the connection, remembering the first reason given.
    func close(_ reason: CloseReason) async {
        state.withLock { state in
            if state.closeReason == nil { state.closeReason = reason }
            state.open = false
        }
        await connection.close()
        controlPosted.fire()
    }

    var peerHello: Hello? {
        get { state.withLock { $0.peerHello } }
        set { state.withLock { $0.peerHello = newValue } }
    }

    var announcedLaunch: LaunchMode? {
        get { state.withLock { $0.announcedLaunch } }
        set { state.withLock { $0.announcedLaunch = newValue } }
    }

    var isOpen: Bool { state.withLock { $0.open } }
    var closeReason: CloseReason? { state.withLock { $0.closeReason } }
    var framesReceived: UInt64 { state.withLock { $0.framesReceived } }

    func noteReceived(_ count: Int) {
        state.withLock { $0.framesReceived &+= UInt64(count) }
    }
}

/// A control frame the reader answers with; each kind keeps only the value that matters.
enum ControlFrame: Sendable, Equatable {
    /// Cumulative: the highest covers the lower ones.
    case ack(upTo: UInt64)
    /// The receiver holds this context version; acks of older versions add nothing.
    case contextAck(version: UInt64)
    /// Any pong shows the peer this side is alive; only the newest is kept.
    case pong(nonce: UInt64)
    /// The receiver's durable offset of a file: the newest covers the older ones of the same file.
    case fileAck(seq: UInt64, offset: UInt64)
    /// How a received file ended; the sender waits for one file at a time, so only the newest is kept.
    case fileEnd(seq: UInt64, status: FileEndStatus)
}

/// Control frames posted and not yet written, coalesced.
struct PendingControl: Sendable, Equatable {
    var ack: UInt64?
    var contextAck: UInt64?
    var pong: UInt64?
    var fileAck: (seq: UInt64, offset: UInt64)?
    var fileEnd: (seq: UInt64, status: FileEndStatus)?

    static func == (lhs: PendingControl, rhs: PendingControl) -> Bool { lhs.frames == rhs.frames }

    mutating func merge(_ control: ControlFrame) {
        switch control {
        case .ack(let upTo): ack = max(ack ?? 0, upTo)
        case .contextAck(let version): contextAck = max(contextAck ?? 0, version)
        case .pong(let nonce): pong = nonce
        case .fileAck(let seq, let offset):
            fileAck = fileAck.map { $0.seq == seq ? (seq, max($0.offset, offset)) : (seq, offset) } ?? (seq, offset)
        case .fileEnd(let seq, let status): fileEnd = (seq, status)
        }
    }

    /// In this order: a file's last acknowledgement before its end.
    var frames: [Frame] {
        var frames: [Frame] = []
        if let ack { frames.append(.ack(upTo: ack)) }
        if let contextAck { frames.append(.contextAck(version: contextAck)) }
        if let fileAck { frames.append(.fileAck(seq: fileAck.seq, offset: fileAck.offset)) }
        if let fileEnd { frames.append(.fileEnd(seq: fileEnd.seq, status: fileEnd.status)) }
        if let pong { frames.append(.pong(nonce: pong)) }
        return frames
    }
}

/// Why a link was closed, for the `peerDisconnected` event and for backoff decisions.
enum CloseReason: Sendable, Hashable {
    /// The peer closed the stream or the transport failed.
    case endOfStream
    /// This side received a frame it could not accept.
    case frameRejected(WCErrorCode)
    /// The peer sent a link-level error frame.
    case peerError(WCErrorCode)
    /// The handshake did not complete or was refused.
    case handshakeFailed
    /// Keep-alives went unanswered.
    case unresponsive
    /// The engine is shutting down.
    case shutdown
    /// This side refused the peer's content for lack of space (7015) and will link back when it has room.
    case refusedForSpace

    /// Whether reconnecting at once would likely fail the same way (so back off first).
    var warrantsBackoff: Bool {
        switch self {
        // Refusing for space: its own reconnects (for its own content) would bring the peer's transfers
        // again; it backs off like after an error, and links back at once when its app made room.
        case .frameRejected, .peerError, .handshakeFailed, .refusedForSpace: true
        case .endOfStream, .unresponsive, .shutdown: false
        }
    }
}

/// Frames encoded back to back, to be written with one write call: the outbox pump sends a page of
/// transfers this way, so a page costs one system call instead of one per transfer.
struct EncodedFrames: Sendable {
    private(set) var bytes: [UInt8] = []

    mutating func append(_ frame: Frame) {
        bytes += FrameEncoder.encode(frame)
    }

    /// Whether the chunk has reached ``Link/maxCoalescedBytes`` and should be written.
    var isFull: Bool { bytes.count >= Link.maxCoalescedBytes }
}
