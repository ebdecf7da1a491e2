/// Constants of the frame layout (docs/WireFormat.md).
///
/// A frame is `length: UInt32 BE` (of type byte + body), `type: UInt8`, the body, then
/// `crc: UInt32 BE`, the CRC-32C of type byte + body (of a `fileChunk`, only up to its bytes).
public enum FrameFormat {
    /// Bytes before the body: the 4-byte length field and the type byte.
    public static let headerLength: Int = 5
    /// Bytes after the body: the CRC-32C.
    public static let trailerLength: Int = 4
    /// The default largest accepted value of the length field: 1 MiB.
    ///
    /// Well above the largest payload (262,144 bytes for a context) plus its framing.
    public static let defaultMaxFrameLength: Int = 1 << 20
    /// How much of a `fileChunk`'s type byte and body its trailer covers: the type, `seq`, `offset` and the
    /// bytes' count (1 + 8 + 8 + 4), not the bytes. The file's CRC-32C in its `fileOffer` covers them end
    /// to end, each side computing it once (the sender when it copies the file in, the receiver as it
    /// writes), so a chunk's bytes are never checksummed a second time on the way (protocol version 5).
    public static let fileChunkCheckedLength: Int = 21

    /// How many bytes from the type byte the trailer of a frame of `type` with length field `length` covers.
    public static func checkedLength(type: UInt8, length: Int) -> Int {
        type == FrameType.fileChunk.rawValue ? min(length, fileChunkCheckedLength) : length
    }
}

/// The type byte of each frame.
///
/// Numbers are part of the wire format and never reused; 0 is never a valid type.
public enum FrameType: UInt8, Sendable, Hashable, CaseIterable {
    /// `Frame.hello`.
    case hello = 0x01
    /// `Frame.message`.
    case message = 0x02
    /// `Frame.reply`.
    case reply = 0x03
    /// `Frame.error`.
    case error = 0x04
    /// `Frame.userInfo`.
    case userInfo = 0x05
    /// `Frame.ack`.
    case ack = 0x06
    /// `Frame.context`.
    case context = 0x07
    /// `Frame.contextAck`.
    case contextAck = 0x08
    /// `Frame.ping`.
    case ping = 0x09
    /// `Frame.pong`.
    case pong = 0x0A
    /// `Frame.fileOffer` (protocol version 2).
    case fileOffer = 0x0B
    /// `Frame.fileChunk` (protocol version 2).
    case fileChunk = 0x0C
    /// `Frame.fileAck` (protocol version 2).
    case fileAck = 0x0D
    /// `Frame.fileEnd` (protocol version 2).
    case fileEnd = 0x0E
    /// `Frame.complicationUserInfo`: the body of a `userInfo` (protocol version 3).
    case complicationUserInfo = 0x0F
    /// `Frame.launch`: the sender's launch mode changed (protocol version 4).
    case launch = 0x10

    /// The case name, e.g. `userInfo`, for logs and error messages.
    public var name: String {
        switch self {
        case .hello: "hello"
        case .message: "message"
        case .reply: "reply"
        case .error: "error"
        case .userInfo: "userInfo"
        case .ack: "ack"
        case .context: "context"
        case .contextAck: "contextAck"
        case .ping: "ping"
        case .pong: "pong"
        case .fileOffer: "fileOffer"
        case .fileChunk: "fileChunk"
        case .fileAck: "fileAck"
        case .fileEnd: "fileEnd"
        case .complicationUserInfo: "complicationUserInfo"
        case .launch: "launch"
        }
    }
}

extension Frame {
    /// This frame's type byte.
    public var type: FrameType {
        switch self {
        case .hello: .hello
        case .message: .message
        case .reply: .reply
        case .error: .error
        case .userInfo: .userInfo
        case .ack: .ack
        case .context: .context
        case .contextAck: .contextAck
        case .ping: .ping
        case .pong: .pong
        case .fileOffer: .fileOffer
        case .fileChunk: .fileChunk
        case .fileAck: .fileAck
        case .fileEnd: .fileEnd
        case .complicationUserInfo: .complicationUserInfo
        case .launch: .launch
        }
    }
}

/// Byte values of the enums inside frame bodies.
extension Role {
    /// The wire byte: 1 phone, 2 watch.
    var wireValue: UInt8 { self == .phone ? 1 : 2 }

    init?(wireValue: UInt8) {
        switch wireValue {
        case 1: self = .phone
        case 2: self = .watch
        default: return nil
        }
    }
}

extension LaunchMode {
    /// The wire byte: 1 foreground, 2 background.
    var wireValue: UInt8 { self == .foreground ? 1 : 2 }

    init?(wireValue: UInt8) {
        switch wireValue {
        case 1: self = .foreground
        case 2: self = .background
        default: return nil
        }
    }
}
