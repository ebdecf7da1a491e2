import Synchronization
import WatchPairWire

/// One connection to the peer, from its first byte to its close, and what the engine knows about it.
///
/// The reader loop, the keep-alive and the message handlers of a link run as children of one task group,
/// so closing a link ends them all. Counters are lock-protected because the keep-alive reads them
/// without hopping onto the engine actor.
final class Link: Sendable, CustomStringConvertible {
    let id: UInt64
    let connection: any TransportConnection
    /// Which side opened the connection; decides which of two simultaneous links survives.
    let initiator: Role
    /// Completes with true when the handshake succeeds, false when the link closes before that.
    let established = OneShot<Bool>()

    private struct State {
        var peerHello: Hello?
        var framesReceived: UInt64 = 0
        var open = true
        var closeReason: CloseReason?
    }

    private let state = Mutex(State())

    init(id: UInt64, connection: any TransportConnection, initiator: Role) {
        self.id = id
        self.connection = connection
        self.initiator = initiator
    }

    var description: String { "link#\(id) (opened by \(initiator.rawValue); \(connection.description))" }

    /// Encodes and writes one frame (one write call per frame).
    func send(_ frame: Frame) async throws {
        try await connection.write(FrameEncoder.encode(frame))
    }

    /// Closes the connection, remembering the first reason given.
    func close(_ reason: CloseReason) async {
        state.withLock { state in
            if state.closeReason == nil { state.closeReason = reason }
            state.open = false
        }
        await connection.close()
    }

    var peerHello: Hello? {
        get { state.withLock { $0.peerHello } }
        set { state.withLock { $0.peerHello = newValue } }
    }

    var isOpen: Bool { state.withLock { $0.open } }
    var closeReason: CloseReason? { state.withLock { $0.closeReason } }
    var framesReceived: UInt64 { state.withLock { $0.framesReceived } }

    func noteReceived(_ count: Int) {
        state.withLock { $0.framesReceived &+= UInt64(count) }
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

    /// Whether reconnecting at once would likely fail the same way (so back off first).
    var warrantsBackoff: Bool {
        switch self {
        case .frameRejected, .peerError, .handshakeFailed: true
        case .endOfStream, .unresponsive, .shutdown: false
        }
    }
}
