import WatchPairWire

/// What a ``Fault`` hits: a whole write call, or frames of one kind.
///
/// The engine writes whole frames, one or several per write call (a batch of userInfo goes in one). A
/// ``FaultInjectingTransport`` splits what each connection writes into frames with `FrameDecoder`, as
/// the peer will, and applies a targeted fault to the whole of the one frame it hits: the frames before
/// and after it, in the same write or in others, pass untouched and in order. Bytes that are not frames
/// (a test writing raw bytes) match only ``write``.
///
/// Targets are predicates, not a partition: `fileAck` is both ``file`` and ``acknowledgement``.
public enum FaultTarget: Sendable, Hashable, CustomStringConvertible {
    /// The next write call, whatever it holds: what ``FaultInjectingTransport/inject(_:)`` aims at.
    case write
    /// Any frame.
    case anyFrame
    /// The handshake: a `hello` frame, the first frame each side writes on a link.
    case handshake
    /// A live message: a `message` frame (`sendMessage`, `sendMessageData`).
    case message
    /// The answer to a message: a `reply` frame, or an `error` frame naming the message it answers
    /// (`relatesTo` not 0: the receiver refused it, 7014, or its handler failed, 7011).
    case reply
    /// A userInfo transfer: a `userInfo` or `complicationUserInfo` frame.
    case userInfo
    /// An application context: a `context` frame.
    case context
    /// A file transfer's frame: `fileOffer`, `fileChunk`, `fileAck` or `fileEnd`; aim at one side to
    /// take the sender's (offer, chunks, a cancel) or the receiver's (acknowledgements, the end).
    case file
    /// An acknowledgement: an `ack` (userInfo), `contextAck` or `fileAck` frame.
    case acknowledgement
    /// Frames of exactly this type, e.g. `.frame(.fileChunk)` or `.frame(.ping)`.
    case frame(FrameType)

    /// Whether a fault aimed here applies to `frame`. ``write`` matches no single frame: it takes a
    /// whole write call before its frames are looked at.
    public func matches(_ frame: Frame) -> Bool {
        switch self {
        case .write: false
        case .anyFrame: true
        case .handshake: frame.type == .hello
        case .message: frame.type == .message
        case .reply: frame.isAnswerToMessage
        case .userInfo: frame.type == .userInfo || frame.type == .complicationUserInfo
        case .context: frame.type == .context
        case .file: [.fileOffer, .fileChunk, .fileAck, .fileEnd].contains(frame.type)
        case .acknowledgement: [.ack, .contextAck, .fileAck].contains(frame.type)
        case .frame(let type): frame.type == type
        }
    }

    /// The case name, e.g. `reply` or `frame(fileChunk)`, for test logs.
    public var description: String {
        switch self {
        case .write: "write"
        case .anyFrame: "anyFrame"
        case .handshake: "handshake"
        case .message: "message"
        case .reply: "reply"
        case .userInfo: "userInfo"
        case .context: "context"
        case .file: "file"
        case .acknowledgement: "acknowledgement"
        case .frame(let type): "frame(\(type.name))"
        }
    }
}

extension Frame {
    /// A `reply`, or an `error` about one message (not a link-level error, whose `relatesTo` is 0).
    var isAnswerToMessage: Bool {
        switch self {
        case .reply: true
        case .error(let relatesTo, _, _): relatesTo != 0
        default: false
        }
    }
}
