import Foundation

/// Turns frames into bytes for the peer link.
///
/// The encoder never fails and never checks limits: callers check payload sizes with
/// `PlistCodec.encodedSize` (`EncodedDictionary.byteCount` for userInfo and context) and nesting with
/// `PlistCodec.nestingDepth(of:)` before a payload is accepted. A userInfo or context payload is written as the
/// bytes it already holds, not encoded again.
public enum FrameEncoder {
    /// Message flag: the sender waits for a reply.
    static let wantsReplyFlag: UInt8 = 0x01
    /// Message flag: the body is bytes (`sendMessageData`), not a dictionary.
    static let dataBodyFlag: UInt8 = 0x02
    /// Reply body kinds.
    static let dictionaryBodyKind: UInt8 = 0
    static let dataBodyKind: UInt8 = 1

    /// Encodes one frame: header, body, checksum (of a `fileChunk`, of everything but its bytes:
    /// `FrameFormat.checkedLength(type:length:)`).
    public static func encode(_ frame: Frame) -> [UInt8] {
        // A chunk's bytes are copied once, into a buffer that already holds the whole frame.
        var reserve = 64
        if case .fileChunk(_, _, let bytes) = frame { reserve += bytes.count }
        var w = ByteWriter(reservingCapacity: reserve)
        w.write(UInt32(0))  // length, patched below
        w.write(frame.type.rawValue)
        writeBody(of: frame, into: &w)
        let length = w.bytes.count - 4
        w.patch(UInt32(clamping: length), at: 0)
        let checked = FrameFormat.checkedLength(type: frame.type.rawValue, length: length)
        let crc = w.bytes.withUnsafeBufferPointer { CRC32C.update(0, buffer: UnsafeBufferPointer(rebasing: $0[4..<(4 + checked)])) }
        w.write(crc)
        return w.bytes
    }

    private static func writeBody(of frame: Frame, into w: inout ByteWriter) {
        switch frame {
        case .hello(let hello):
            w.write(hello.protocolVersion)
            w.write(hello.role.wireValue)
            w.write(hello.launch.wireValue)
            w.write(string: hello.pairId)
            w.write(hello.storeId)
            w.write(UInt8(hello.resume.peerStoreId == nil ? 0 : 1))
            // Always 16 bytes, zero when absent, so the layout is fixed.
            w.write(hello.resume.peerStoreId ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
            w.write(hello.resume.lastUserInfoSeq)
            w.write(hello.resume.contextVersion)
        case .message(let id, let wantsReply, let body):
            w.write(id)
            var flags: UInt8 = wantsReply ? wantsReplyFlag : 0
            if case .data = body { flags |= dataBodyFlag }
            w.write(flags)
            write(body, into: &w)
        case .reply(let id, let body):
            w.write(id)
            if case .data = body { w.write(dataBodyKind) } else { w.write(dictionaryBodyKind) }
            write(body, into: &w)
        case .error(let relatesTo, let code, let reason):
            w.write(relatesTo)
            w.write(UInt16(clamping: code.rawValue))
            w.write(string: reason)
        case .userInfo(let seq, let after, let transferId, let payload),
            .complicationUserInfo(let seq, let after, let transferId, let payload):
            w.write(seq)
            w.write(after)
            w.write(transferId)
            w.write(contentsOf: payload.bytes)
        case .ack(let upTo):
            w.write(upTo)
        case .context(let version, let payload):
            w.write(version)
            w.write(contentsOf: payload.bytes)
        case .contextAck(let version):
            w.write(version)
        case .ping(let nonce), .pong(let nonce):
            w.write(nonce)
        case .fileOffer(let offer):
            w.write(offer.seq)
            w.write(offer.after)
            w.write(offer.transferId)
            w.write(string: offer.fileName)
            w.write(offer.size)
            w.write(offer.checksum)
            w.write(UInt8(offer.metadata == nil ? 0 : 1))
            if let metadata = offer.metadata { w.write(contentsOf: metadata.bytes) }
        case .fileChunk(let seq, let offset, let bytes):
            w.write(seq)
            w.write(offset)
            w.write(lengthPrefixed: bytes)
        case .fileAck(let seq, let offset):
            w.write(seq)
            w.write(offset)
        case .fileEnd(let seq, let status):
            w.write(seq)
            w.write(status.rawValue)
        case .launch(let mode):
            w.write(mode.wireValue)
        }
    }

    private static func write(_ body: MessageBody, into w: inout ByteWriter) {
        switch body {
        case .dictionary(let d): PlistCodec.write(.dictionary(d), into: &w)
        case .data(let d): w.write(lengthPrefixed: d)
        }
    }
}
