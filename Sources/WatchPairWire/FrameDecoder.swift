import Foundation

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
///
/// A `fileChunk` that does not arrive whole in one append is gathered apart: once its header is in, its
/// bytes go from each append straight into the chunk's `Data`, not through the buffer first, so a file's
/// byte is copied once here instead of twice (the checks and their order are the same).
public struct FrameDecoder: Sendable {
    /// The largest accepted value of the length field (type byte + body).
    public let maxFrameLength: Int

    /// Received bytes; those before `readIndex` are already decoded.
    private var buffer: [UInt8] = []
    private var readIndex = 0
    /// Set by the first error; rethrown from then on.
    private var failure: FrameError?
    /// The bytes of a `fileChunk` being gathered (its header is in `buffer` at `readIndex`; what came after
    /// its bytes follows the header there), and how many it carries.
    private var chunkBytes: Data?
    private var chunkByteCount = 0

    /// A `fileChunk`'s header from its length field to its bytes' count (4 + 1 + 8 + 8 + 4).
    private static let chunkHeaderLength = 4 + FrameFormat.fileChunkCheckedLength

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
        guard chunkBytes != nil else { return buffer.append(contentsOf: bytes) }
        if bytes.withContiguousStorageIfAvailable({ gather($0) }) == nil {
            Array(bytes).withUnsafeBufferPointer { gather($0) }
        }
    }

    /// Appends to the chunk being gathered what belongs to it, the rest to the buffer.
    private mutating func gather(_ bytes: UnsafeBufferPointer<UInt8>) {
        let taken = min(bytes.count, chunkByteCount - chunkBytes!.count)
        chunkBytes!.append(UnsafeBufferPointer(rebasing: bytes[..<taken]))
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[taken...]))
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
            chunkBytes = nil
            throw error
        }
    }

    /// Number of bytes buffered but not yet decoded (0 once poisoned).
    public var bufferedByteCount: Int { buffer.count - readIndex + (chunkBytes?.count ?? 0) }

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
        if chunkBytes != nil { return try gatheredChunk() }
        guard available >= total else {
            startGathering(length: Int(length))
            return nil
        }

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

    /// Starts gathering the frame at `readIndex` apart when it is a well-formed `fileChunk` whose header is
    /// in: its bytes' count matches the length field (anything else takes the usual path and its errors).
    private mutating func startGathering(length: Int) {
        let headerEnd = readIndex + Self.chunkHeaderLength
        guard buffer.count >= headerEnd, buffer[readIndex + 4] == FrameType.fileChunk.rawValue,
              length >= FrameFormat.fileChunkCheckedLength,
              Int(readUInt32(at: headerEnd - 4)) == length - FrameFormat.fileChunkCheckedLength else { return }
        chunkByteCount = length - FrameFormat.fileChunkCheckedLength
        let arrived = min(buffer.count - headerEnd, chunkByteCount)
        var bytes = Data(capacity: chunkByteCount)
        buffer.withUnsafeBufferPointer { bytes.append(UnsafeBufferPointer(rebasing: $0[headerEnd..<(headerEnd + arrived)])) }
        buffer.removeSubrange(headerEnd..<(headerEnd + arrived))
        chunkBytes = bytes
    }

    /// The gathered `fileChunk` once its bytes and trailer are in, checked as `decodeNext` checks a frame.
    private mutating func gatheredChunk() throws(FrameError) -> Frame? {
        let typeIndex = readIndex + 4
        let trailer = readIndex + Self.chunkHeaderLength
        guard chunkBytes!.count == chunkByteCount, buffer.count >= trailer + FrameFormat.trailerLength else { return nil }
        let expected = readUInt32(at: trailer)
        let actual = CRC32C.checksum(buffer[typeIndex..<trailer])
        guard expected == actual else { throw .badChecksum(expected: expected, actual: actual) }
        let frame = Frame.fileChunk(seq: readUInt64(at: typeIndex + 1), offset: readUInt64(at: typeIndex + 9), bytes: chunkBytes!)
        chunkBytes = nil
        readIndex = trailer + FrameFormat.trailerLength
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            readIndex = 0
        }
        return frame
    }

    private func readUInt64(at offset: Int) -> UInt64 {
        UInt64(readUInt32(at: offset)) << 32 | UInt64(readUInt32(at: offset + 4))
    }

    private func readUInt32(at offset: Int) -> UInt32 {
        UInt32(buffer[offset]) << 24 | UInt32(buffer[offset + 1]) << 16
            | UInt32(buffer[offset + 2]) << 8 | UInt32(buffer[offset + 3])
    }
}
