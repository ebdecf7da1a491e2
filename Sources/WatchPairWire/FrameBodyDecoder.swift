import Foundation

/// Parses the body of one frame whose length and checksum are already verified.
///
/// Internal to `FrameDecoder`: every field is bounds-checked by `ByteReader`, and the body must be
/// consumed exactly (`.trailingBytes` otherwise).
enum FrameBodyDecoder {
    /// Decodes `bytes[start..<end]` as the body of a frame of type `type`.
    static func decode(
        type: FrameType, bytes: [UInt8], from start: Int, to end: Int
    ) throws(FrameError) -> Frame {
        var r = ByteReader(bytes, from: start, to: end)
        // The version comes first in a hello so a future, longer hello is still recognised as such.
        if type == .hello, end - start >= 2 {
            let version = UInt16(bytes[start]) << 8 | UInt16(bytes[start + 1])
            guard version == Hello.currentProtocolVersion else { throw .unsupportedVersion(version) }
        }
        do throws(MalformedError) {
            let frame: Frame
            switch type {
            case .hello:
                frame = .hello(try readHello(version: try r.readUInt16(), &r))
            case .message:
                let id = try r.readUInt64()
                let flags = try r.readUInt8()
                guard flags & ~(FrameEncoder.wantsReplyFlag | FrameEncoder.dataBodyFlag) == 0 else {
                    throw MalformedError(.invalidFlags(flags))
                }
                let body = try readBody(isData: flags & FrameEncoder.dataBodyFlag != 0, &r)
                frame = .message(id: id, wantsReply: flags & FrameEncoder.wantsReplyFlag != 0, body: body)
            case .reply:
                let id = try r.readUInt64()
                let kind = try r.readUInt8()
                guard kind == FrameEncoder.dictionaryBodyKind || kind == FrameEncoder.dataBodyKind else {
                    throw MalformedError(.invalidBodyKind(kind))
                }
                frame = .reply(id: id, body: try readBody(isData: kind == FrameEncoder.dataBodyKind, &r))
            case .error:
                let relatesTo = try r.readUInt64()
                let raw = Int(try r.readUInt16())
                guard let code = WCErrorCode(rawValue: raw) else { throw MalformedError(.unknownErrorCode(raw)) }
                frame = .error(relatesTo: relatesTo, code: code, reason: try r.readString())
            case .userInfo, .complicationUserInfo:
                let seq = try r.readUInt64()
                let after = try r.readUInt64()
                let transferId = try r.readUUID()
                // Validated as strictly as any payload, then kept as the bytes it arrived as.
                let start = r.index
                let payload = EncodedDictionary(validated: try PlistCodec.readDictionary(&r), from: r, start: start)
                frame = type == .userInfo
                    ? .userInfo(seq: seq, after: after, transferId: transferId, payload: payload)
                    : .complicationUserInfo(seq: seq, after: after, transferId: transferId, payload: payload)
            case .ack:
                frame = .ack(upTo: try r.readUInt64())
            case .context:
                let version = try r.readUInt64()
                let start = r.index
                let payload = try PlistCodec.readDictionary(&r)
                frame = .context(version: version, payload: EncodedDictionary(validated: payload, from: r, start: start))
            case .contextAck:
                frame = .contextAck(version: try r.readUInt64())
            case .ping:
                frame = .ping(nonce: try r.readUInt64())
            case .pong:
                frame = .pong(nonce: try r.readUInt64())
            case .fileOffer:
                frame = .fileOffer(try readFileOffer(&r))
            case .fileChunk:
                frame = .fileChunk(seq: try r.readUInt64(), offset: try r.readUInt64(), bytes: try r.readLengthPrefixedData())
            case .fileAck:
                frame = .fileAck(seq: try r.readUInt64(), offset: try r.readUInt64())
            case .fileEnd:
                let seq = try r.readUInt64()
                let raw = try r.readUInt8()
                guard let status = FileEndStatus(rawValue: raw) else { throw MalformedError(.invalidFileStatus(raw)) }
                frame = .fileEnd(seq: seq, status: status)
            case .launch:
                let raw = try r.readUInt8()
                guard let mode = LaunchMode(wireValue: raw) else { throw MalformedError(.invalidLaunchMode(raw)) }
                frame = .launch(mode)
            }
            try r.expectEnd()
            return frame
        } catch {
            throw .malformed(frameType: type.rawValue, reason: error.reason)
        }
    }

    private static func readHello(version: UInt16, _ r: inout ByteReader) throws(MalformedError) -> Hello {
        let roleByte = try r.readUInt8()
        guard let role = Role(wireValue: roleByte) else { throw MalformedError(.invalidRole(roleByte)) }
        let launchByte = try r.readUInt8()
        guard let launch = LaunchMode(wireValue: launchByte) else {
            throw MalformedError(.invalidLaunchMode(launchByte))
        }
        let pairId = try r.readString()
        let storeId = try r.readUUID()
        let hasPeerStoreId = try r.readBool()
        let peerBytes = try r.skip(16)
        var peerStoreId: UUID? = nil
        if hasPeerStoreId {
            var sub = ByteReader(r.bytes, from: peerBytes.lowerBound, to: peerBytes.upperBound)
            peerStoreId = try sub.readUUID()
        } else if r.bytes[peerBytes].contains(where: { $0 != 0 }) {
            throw MalformedError(.nonZeroPadding)
        }
        let lastUserInfoSeq = try r.readUInt64()
        let contextVersion = try r.readUInt64()
        return Hello(
            protocolVersion: version, role: role, pairId: pairId, storeId: storeId, launch: launch,
            resume: ResumeState(
                peerStoreId: peerStoreId, lastUserInfoSeq: lastUserInfoSeq, contextVersion: contextVersion)
        )
    }

    private static func readFileOffer(_ r: inout ByteReader) throws(MalformedError) -> FileOffer {
        let seq = try r.readUInt64()
        let after = try r.readUInt64()
        let transferId = try r.readUUID()
        let fileName = try r.readString()
        // The receiver creates a file of this name: anything that could leave its directory is refused here.
        guard FileName.isValid(fileName) else { throw MalformedError(.invalidFileName) }
        let size = try r.readUInt64()
        let checksum = try r.readUInt32()
        var metadata: EncodedDictionary? = nil
        if try r.readBool() {
            let start = r.index
            let dictionary = try PlistCodec.readDictionary(&r)
            metadata = EncodedDictionary(validated: dictionary, from: r, start: start)
        }
        return FileOffer(
            seq: seq, after: after, transferId: transferId, fileName: fileName, size: size, checksum: checksum,
            metadata: metadata)
    }

    private static func readBody(isData: Bool, _ r: inout ByteReader) throws(MalformedError) -> MessageBody {
        isData ? .data(try r.readLengthPrefixedData()) : .dictionary(try PlistCodec.readDictionary(&r))
    }
}
