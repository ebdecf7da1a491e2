/// A fault that ``FaultInjectingTransport`` applies to one write call.
///
/// The engine writes one frame per write call, so a fault hits exactly one frame.
public enum Fault: Sendable, Hashable, CustomStringConvertible {
    /// The write passes unchanged; queue it to let writes through before a later fault.
    case none
    /// The write is silently discarded; the writer sees success.
    case drop
    /// The write is held for this long on the injected clock, then written. The writer stays suspended
    /// meanwhile, and later writes on the same connection wait behind it (bytes never reorder).
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
    /// Which write call it hit: the 0-based count of write calls on this transport's connections before it.
    public var writeIndex: Int

    /// An applied fault; normally made by ``FaultInjectingTransport`` only.
    public init(fault: Fault, writeIndex: Int) {
        self.fault = fault
        self.writeIndex = writeIndex
    }

    /// A short form for test logs, e.g. `drop@2`.
    public var description: String { "\(fault)@\(writeIndex)" }
}
