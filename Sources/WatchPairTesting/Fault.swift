import WatchPairWire

/// A fault that ``FaultInjectingTransport`` applies to one write call, or to one frame in it.
///
/// What it hits is its ``FaultTarget``: ``FaultInjectingTransport/inject(_:)`` aims at the next write
/// call, ``FaultInjectingTransport/inject(_:on:from:count:)`` at frames of one kind. Aimed at a frame,
/// each case below acts on that frame's bytes only, and "the writer" is the write call that held it.
public enum Fault: Sendable, Hashable, CustomStringConvertible {
    /// The write passes unchanged; queue it to let writes through before a later fault.
    case none
    /// The write is silently discarded; the writer sees success.
    case drop
    /// The write is held for this long on the injected clock, then written. The writer stays suspended
    /// meanwhile, and later writes on the same connection wait behind it (bytes never reorder): the link
    /// is a byte stream, so what was written after the held bytes arrives after them, as on a socket.
    /// Other connections, and the other direction of this one, are not held.
    case delay(Duration)
    /// The first half of the write's bytes (`count / 2`) is written, then the connection is closed;
    /// the writer sees `TransportError(.connectionClosed, …)`.
    case disconnectMidFrame
    /// All bits of the byte at `byteOffset` are flipped (the offset is clamped to `0...count - 1`; an
    /// empty write is passed unchanged); the writer sees success.
    case corrupt(byteOffset: Int)
    /// The connection is closed instead of writing; the writer sees `TransportError(.connectionClosed, …)`.
    case disconnect

    /// A short form for test logs, e.g. `corrupt(byteOffset: 3)`.
    public var description: String {
        switch self {
        case .none: "none"
        case .drop: "drop"
        case .delay(let duration): "delay(\(duration))"
        case .disconnectMidFrame: "disconnectMidFrame"
        case .corrupt(let byteOffset): "corrupt(byteOffset: \(byteOffset))"
        case .disconnect: "disconnect"
        }
    }
}

/// A fault that ``FaultInjectingTransport`` applied, reported through ``FaultInjectingTransport/appliedFaults``.
public struct AppliedFault: Sendable, Hashable, CustomStringConvertible {
    /// The fault that was applied (never ``Fault/none``: passing writes are not reported).
    public var fault: Fault
    /// Which write call it hit, or which held the frame it hit: counted from 0 over the write calls of
    /// the connections of the transport that wrote it.
    public var writeIndex: Int
    /// The type of the frame it hit; nil when it took a whole write call (``FaultTarget/write``).
    public var frame: FrameType?
    /// The side that wrote the frame it hit, when its transport knows its side; nil when it took a whole
    /// write call.
    public var from: Role?

    /// An applied fault; normally made by ``FaultInjectingTransport`` only.
    public init(fault: Fault, writeIndex: Int, frame: FrameType? = nil, from: Role? = nil) {
        self.fault = fault
        self.writeIndex = writeIndex
        self.frame = frame
        self.from = from
    }

    /// A short form for test logs, e.g. `drop@2`, or `drop(reply from watch)@2` for a frame.
    public var description: String {
        guard let frame else { return "\(fault)@\(writeIndex)" }
        return "\(fault)(\(frame.name)\(from.map { " from \($0.rawValue)" } ?? ""))@\(writeIndex)"
    }
}
