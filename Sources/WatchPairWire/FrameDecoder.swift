/// Splits the byte stream of a peer link into frames and decodes them.
///
/// Feed it what the socket reads with `append(_:)`, then call `next()` until it returns nil. Each frame is
/// checked in this order: length field (not 0, at most `maxFrameLength`, as soon as its 4 bytes are in),
/// checksum, type byte, body. The first error poisons the decoder: every later `next()` and `finish()`
/// throws that same error, and appended bytes are dropped. A stream that produced garbage is never
/// resynchronised; the owner sends an error frame and closes the connection.
///
/// Bound: after `next()` has returned nil, the buffer holds less than one frame
/// (`maxFrameLength + 8` bytes); an `append` then adds one chunk. So with the usual loop
/// (append a read, drain with `next()`), the buffer never exceeds one frame's worth plus the latest chunk.
/// A length field over the limit is rejected from the header alone, before any body is awaited.
public struct FrameDecoder: Sendable {
    /// The largest accepted value of the length field (type byte + body).
    public let maxFrameLength: Int

    /// Received bytes; those before `readIndex` are already decoded.
    private var buffer: [UInt8] = []
    private var readIndex = 0
    /// Set by the first error; rethrown from then on.
    private var failure: FrameError?

    /// A decoder accepting length fields up to `maxFrameLength` (clamped to 1...`UInt32.max`).
    public init(maxFrameLength: Int = FrameFormat.defaultMaxFrameLength) {
        self.maxFrameLength = min(max(maxFrameLength, 1), Int(UInt32.max))
    }

    /// Adds bytes read from the stream.
    ///
    /// Already decoded bytes are discarded first, so the buffer holds at most the partial frame left
    /// after the last `next()` plus this chunk. Ignored once the decoder is poisoned.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        guard failure == nil else { return }
        if readIndex > 0 {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, or nil when more bytes are needed.
    ///
    /// The length field is checked against the limit before the body is waited for. After it throws, the
    /// decoder is poisoned: every later call throws the same error.
    public mutating func next() throws(FrameError) -> Frame? {
        if let failure { throw failure }
        do {
            return try decodeNext()
        } catch {
            failure = error
            buffer = []  // nothing more will be decoded: release the memory
            readIndex = 0
            throw error
        }
    }

    /// Number of bytes buffered but not yet decoded (0 once poisoned).
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Call at end of stream, after `next()` returned nil: throws `.truncated` when a partial frame is
    /// buffered, or the poisoning error.
    public func finish() throws(FrameError) {
        if let failure { throw failure }
        if bufferedByteCount > 0 { throw .truncated(bufferedBytes: bufferedByteCount) }
    }

    private mutating func decodeNext() throws(FrameError) -> Frame? {
        let available = buffer.count - readIndex
        guard available >= 4 else { return nil }
        let length = readUInt32(at: readIndex)
        guard length != 0 else { throw .badLength(length) }
        guard Int(length) <= maxFrameLength else { throw .tooLarge(length: Int(length), limit: maxFrameLength) }
        let total = 4 + Int(length) + FrameFormat.trailerLength
        guard available >= total else { return nil }

        let typeIndex = readIndex + 4
        let bodyEnd = typeIndex + Int(length)
        let expected = readUInt32(at: bodyEnd)
        let checked = FrameFormat.checkedLength(type: buffer[typeIndex], length: Int(length))
        let actual = CRC32C.checksum(buffer[typeIndex..<(typeIndex + checked)])
        guard expected == actual else { throw .badChecksum(expected: expected, actual: actual) }
        guard let type = FrameType(rawValue: buffer[typeIndex]) else { throw .unknownType(buffer[typeIndex]) }
        let frame = try FrameBodyDecoder.decode(type: type, bytes: buffer, from: typeIndex + 1, to: bodyEnd)

        readIndex += total
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            readIndex = 0
        }
        return frame
    }

    private func readUInt32(at offset: Int) -> UInt32 {
        UInt32(buffer[offset]) << 24 | UInt32(buffer[offset + 1]) << 16
            | UInt32(buffer[offset + 2]) << 8 | UInt32(buffer[offset + 3])
    }
}
