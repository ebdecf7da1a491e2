/// Why the byte stream of a peer link, or a property-list encoding, was rejected.
///
/// Every case is fatal for the connection: the receiver sends an `error` frame with `relatesTo: 0`,
/// `code` and `description`, then closes (docs/WireFormat.md, "Error handling"). A `FrameDecoder` that
/// threw one is poisoned and throws the same error from then on.
public enum FrameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stream ended inside a frame; `bufferedBytes` bytes of it had arrived.
    case truncated(bufferedBytes: Int)
    /// The length field was 0: a frame always has at least its type byte.
    case badLength(UInt32)
    /// The length field is over the decoder's limit; detected from the header alone, before the body is awaited.
    case tooLarge(length: Int, limit: Int)
    /// The trailer did not match: `expected` is the checksum the frame carries, `actual` the CRC-32C
    /// computed over the type byte and body that arrived.
    case badChecksum(expected: UInt32, actual: UInt32)
    /// The type byte is not one of `FrameType`.
    case unknownType(UInt8)
    /// The body of a frame of type `frameType` does not parse (0 when decoding a bare property list).
    case malformed(frameType: UInt8, reason: MalformedReason)
    /// A `hello` with a protocol version this build does not speak (`Hello.currentProtocolVersion`).
    case unsupportedVersion(UInt16)

    /// The `WCError` code to report for this error: `payloadTooLarge` (7009) for `tooLarge`,
    /// `invalidParameter` (7008) for every other case.
    public var code: WCErrorCode {
        switch self {
        case .tooLarge: .payloadTooLarge
        case .truncated, .badLength, .badChecksum, .unknownType, .malformed, .unsupportedVersion:
            .invalidParameter
        }
    }

    /// One sentence for a person (and for the `reason` of the error frame sent before closing).
    public var description: String {
        switch self {
        case .truncated(let n):
            "The stream ended inside a frame (\(n) bytes buffered)."
        case .badLength(let n):
            "Frame length field \(n) is invalid (a frame holds at least its type byte)."
        case .tooLarge(let length, let limit):
            "Frame length \(length) is over the limit of \(limit) bytes."
        case .badChecksum(let expected, let actual):
            "Frame checksum mismatch: the frame carries \(hex(expected)), its bytes give \(hex(actual))."
        case .unknownType(let t):
            "Unknown frame type \(hex(t))."
        case .malformed(let t, let reason):
            t == 0
                ? "Malformed property list: \(reason)."
                : "Malformed \(FrameType(rawValue: t)?.name ?? hex(t)) frame: \(reason)."
        case .unsupportedVersion(let v):
            "Unsupported protocol version \(v) (this side speaks \(Hello.currentProtocolVersion))."
        }
    }
}

/// What exactly was wrong with a frame body or a property-list encoding (`FrameError.malformed`).
public enum MalformedReason: Sendable, Hashable, CustomStringConvertible {
    /// The body ended before a field was complete, or a length field points past its end.
    case shortBody
    /// The body has `count` bytes after its last field.
    case trailingBytes(count: Int)
    /// A string is not valid UTF-8.
    case invalidUTF8
    /// A property-list value starts with an unknown tag byte.
    case invalidPlistTag(UInt8)
    /// Containers are nested deeper than `PlistCodec.maxNestingDepth`.
    case nestingTooDeep
    /// A dictionary holds the same key twice (also two keys that Swift considers equal strings).
    case duplicateKey
    /// Dictionary keys are not in strictly increasing order of their UTF-8 bytes.
    case unsortedKeys
    /// A value that must be a dictionary (a payload) is another property-list type.
    case expectedDictionary
    /// A `Role` byte that is neither 1 (phone) nor 2 (watch).
    case invalidRole(UInt8)
    /// A `LaunchMode` byte that is neither 1 (foreground) nor 2 (background).
    case invalidLaunchMode(UInt8)
    /// A boolean byte that is neither 0 nor 1.
    case invalidBool(UInt8)
    /// Padding that must be zero is not (the peer store id of a hello without one).
    case nonZeroPadding
    /// An error frame's code is not a known `WCErrorCode` raw value.
    case unknownErrorCode(Int)
    /// Message flags with bits other than `wantsReply` (bit 0) and body kind (bit 1) set.
    case invalidFlags(UInt8)
    /// A reply's body kind byte is neither 0 (dictionary) nor 1 (data).
    case invalidBodyKind(UInt8)
    /// A file offer's name is not one path component (`FileName.isValid`).
    case invalidFileName
    /// A `fileEnd` status byte that is not a `FileEndStatus`.
    case invalidFileStatus(UInt8)

    /// A short phrase, e.g. `invalid UTF-8 in a string`.
    public var description: String {
        switch self {
        case .shortBody: "the body ends inside a field"
        case .trailingBytes(let n): "\(n) bytes after the last field"
        case .invalidUTF8: "invalid UTF-8 in a string"
        case .invalidPlistTag(let t): "unknown property-list tag \(hex(t))"
        case .nestingTooDeep: "containers nested deeper than \(PlistCodec.maxNestingDepth)"
        case .duplicateKey: "duplicate dictionary key"
        case .unsortedKeys: "dictionary keys not sorted by their UTF-8 bytes"
        case .expectedDictionary: "the payload is not a dictionary"
        case .invalidRole(let b): "invalid role \(b)"
        case .invalidLaunchMode(let b): "invalid launch mode \(b)"
        case .invalidBool(let b): "invalid boolean byte \(b)"
        case .nonZeroPadding: "non-zero padding"
        case .unknownErrorCode(let c): "unknown error code \(c)"
        case .invalidFlags(let f): "invalid message flags \(hex(f))"
        case .invalidBodyKind(let k): "invalid body kind \(k)"
        case .invalidFileName: "a file name that is not one path component"
        case .invalidFileStatus(let b): "invalid file status \(b)"
        }
    }
}

/// `0x1F`-style hex for messages.
func hex(_ value: some FixedWidthInteger) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    let width = value.bitWidth / 4
    return "0x" + String(repeating: "0", count: max(0, width - digits.count)) + digits
}
