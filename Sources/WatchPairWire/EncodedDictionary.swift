import Foundation

/// A payload dictionary held as its canonical `PlistCodec` bytes, so it is encoded once where it enters
/// and then stored and sent as those bytes.
///
/// Made only by encoding a dictionary (`init(_:)`) or by strictly decoding received bytes
/// (`init(validating:)`); both keep the dictionary they had in hand, so reading `dictionary` costs nothing
/// there. Equality and hashing are by bytes: because the encoding is canonical, equal bytes mean equal
/// payloads, and every accepted encoding re-encodes to itself.
public struct EncodedDictionary: Sendable, Hashable {
    /// The encoding, tag byte included: exactly what a frame carries and what the store keeps.
    public let bytes: [UInt8]
    /// The dictionary these bytes encode, when it was at hand at construction; nil for bytes read back
    /// from this side's own store (`init(storedBytes:)`), which are decoded only when asked.
    private let decoded: PlistDictionary?

    /// Encodes `dictionary`.
    ///
    /// - Throws: `FrameError.malformed(frameType: 0, reason: .nestingTooDeep)` when it nests deeper than
    ///   `PlistCodec.maxNestingDepth`: such bytes would never decode again.
    public init(_ dictionary: PlistDictionary) throws(FrameError) {
        guard PlistCodec.nestingDepth(of: .dictionary(dictionary)) <= PlistCodec.maxNestingDepth else {
            throw .malformed(frameType: 0, reason: .nestingTooDeep)
        }
        self.init(encodingUnchecked: dictionary)
    }

    /// Encodes `dictionary` without the nesting check: only for frames built by hand (`Frame.userInfo`
    /// with a dictionary), whose encoder never fails, so that a tool can also forge a frame the peer rejects.
    init(encodingUnchecked dictionary: PlistDictionary) {
        bytes = PlistCodec.encode(dictionary)
        decoded = dictionary
    }

    /// Strictly decodes `bytes` (the rules of `PlistCodec.decodeDictionary`) and keeps them.
    ///
    /// - Throws: `FrameError.malformed(frameType: 0, reason:)`.
    public init(validating bytes: [UInt8]) throws(FrameError) {
        decoded = try PlistCodec.decodeDictionary(bytes)
        self.bytes = bytes
    }

    /// Bytes `reader` has just validated with `PlistCodec.readDictionary`, from `start`.
    init(validated dictionary: PlistDictionary, from reader: ByteReader, start: Int) {
        bytes = Array(reader.bytes[start..<reader.index])
        decoded = dictionary
    }

    /// Bytes this side's store wrote from an `EncodedDictionary` and reads back only to send them again:
    /// not decoded here (the peer validates every frame it receives). Read through `dictionary` only after
    /// validating (`init(validating:)`), as the store's public reads do.
    package init(storedBytes bytes: [UInt8]) {
        self.bytes = bytes
        decoded = nil
    }

    /// The size of the encoding in bytes: what the payload limits measure (docs/WireFormat.md).
    public var byteCount: Int { bytes.count }

    /// The dictionary: the one at hand at construction, else decoded now (values from `init(storedBytes:)`).
    public var dictionary: PlistDictionary {
        if let decoded { return decoded }
        do {
            return try PlistCodec.decodeDictionary(bytes)
        } catch {
            preconditionFailure("stored payload bytes no longer decode: \(error)")
        }
    }

    public static func == (lhs: EncodedDictionary, rhs: EncodedDictionary) -> Bool { lhs.bytes == rhs.bytes }

    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
}

extension Frame {
    /// A userInfo frame with `payload` encoded here (never fails; see `EncodedDictionary(_:)` for the
    /// checked encoding senders use).
    public static func userInfo(seq: UInt64, after: UInt64, transferId: UUID, payload: PlistDictionary) -> Frame {
        .userInfo(seq: seq, after: after, transferId: transferId, payload: EncodedDictionary(encodingUnchecked: payload))
    }

    /// A context frame with `payload` encoded here (never fails, as ``userInfo(seq:after:transferId:payload:)``).
    public static func context(version: UInt64, payload: PlistDictionary) -> Frame {
        .context(version: version, payload: EncodedDictionary(encodingUnchecked: payload))
    }
}

extension PlistValue {
    /// The dictionary value an encoded dictionary holds.
    public static func dictionary(_ encoded: EncodedDictionary) -> PlistValue { .dictionary(encoded.dictionary) }
}
