/// The few MQTT 3.1.1 packets the peer comparison needs (OASIS MQTT 3.1.1, §2 and §3): CONNECT,
/// SUBSCRIBE, PUBLISH at QoS 1, their acknowledgements, and DISCONNECT. Pure encoding and decoding.
enum MQTTPacket: Equatable {
    /// CONNACK with its return code (0: accepted).
    case connack(returnCode: UInt8)
    /// SUBACK (the granted QoS is not checked: the broker grants what was asked, up to 2).
    case suback(packetID: UInt16)
    /// PUBLISH; `packetID` is set for QoS 1 and 2.
    case publish(topic: String, packetID: UInt16?, payload: [UInt8])
    /// PUBACK of a QoS 1 PUBLISH.
    case puback(packetID: UInt16)
    /// Anything else (PINGRESP, ...), by its packet type.
    case other(type: UInt8)

    /// A malformed packet from the broker.
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    // MARK: Encoding

    /// CONNECT with protocol level 4 (3.1.1), a 60 s keep-alive and no credentials.
    static func connect(clientID: String, cleanSession: Bool) -> [UInt8] {
        var body: [UInt8] = string("MQTT") + [4, cleanSession ? 0x02 : 0x00, 0, 60]
        body += string(clientID)
        return frame(0x10, body)
    }

    /// SUBSCRIBE to one topic filter at `qos`.
    static func subscribe(packetID: UInt16, topic: String, qos: UInt8) -> [UInt8] {
        frame(0x82, uint16(packetID) + string(topic) + [qos])
    }

    /// PUBLISH at QoS 1.
    static func publish(topic: String, packetID: UInt16, payload: [UInt8]) -> [UInt8] {
        frame(0x32, string(topic) + uint16(packetID) + payload)
    }

    /// PUBACK of `packetID`.
    static func puback(_ packetID: UInt16) -> [UInt8] {
        frame(0x40, uint16(packetID))
    }

    /// DISCONNECT.
    static let disconnect: [UInt8] = [0xE0, 0]

    /// The fixed header (type and flags, remaining length) and `body`.
    static func frame(_ first: UInt8, _ body: [UInt8]) -> [UInt8] {
        [first] + remainingLength(body.count) + body
    }

    /// The variable-length "remaining length" (§2.2.3): 7 bits a byte, the high bit set while more follow.
    static func remainingLength(_ length: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = length
        repeat {
            var byte = UInt8(rest % 128)
            rest /= 128
            if rest > 0 { byte |= 0x80 }
            bytes.append(byte)
        } while rest > 0
        return bytes
    }

    private static func uint16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

    private static func string(_ text: String) -> [UInt8] { uint16(UInt16(text.utf8.count)) + Array(text.utf8) }

    // MARK: Decoding

    /// The packet with fixed-header byte `first` and the `body` that followed its remaining length.
    static func decode(first: UInt8, body: [UInt8]) throws(Malformed) -> MQTTPacket {
        func id(at offset: Int) throws(Malformed) -> UInt16 {
            guard body.count >= offset + 2 else { throw Malformed(description: "packet 0x\(String(first, radix: 16)) too short") }
            return UInt16(body[offset]) << 8 | UInt16(body[offset + 1])
        }
        switch first >> 4 {
        case 2:
            guard body.count == 2 else { throw Malformed(description: "CONNACK of \(body.count) bytes") }
            return .connack(returnCode: body[1])
        case 3:
            let qos = (first >> 1) & 0x3
            let topicLength = Int(try id(at: 0))
            var offset = 2 + topicLength
            guard body.count >= offset else { throw Malformed(description: "PUBLISH topic runs past the packet") }
            let topic = String(decoding: body[2..<offset], as: UTF8.self)
            var packetID: UInt16?
            if qos > 0 {
                packetID = try id(at: offset)
                offset += 2
            }
            return .publish(topic: topic, packetID: packetID, payload: Array(body[offset...]))
        case 4: return .puback(packetID: try id(at: 0))
        case 9: return .suback(packetID: try id(at: 0))
        default: return .other(type: first >> 4)
        }
    }
}
