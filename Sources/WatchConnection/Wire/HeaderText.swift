import Foundation

/// Writes an envelope's header fields by hand around the body's JSON, the same bytes `JSONEncoder` writes
/// with sorted keys (`body`, `id`, `kind`, `reply`, `type`, `v`): Foundation then encodes only the app's
/// body, not the header's keyed container and `UUID`. Headers it cannot write byte for byte (an `error`,
/// a type name needing an escape) answer nil and take the encoder.
enum HeaderText {
    /// The envelope's JSON text, or nil when the encoder must write it.
    static func envelope<Body: Encodable>(_ header: WireEnvelope.Header, body: Body?) -> String? {
        guard header.error == nil, isPlain(header.type) else { return nil }
        var text = "{"
        text.reserveCapacity(160)
        if let body {
            guard let data = try? WireEnvelope.makeEncoder().encode(body) else { return nil }
            text += "\"body\":"
            text += String(decoding: data, as: UTF8.self)
            text += ","
        }
        text += "\"id\":\""
        text += idText(header.id)
        text += "\",\"kind\":\""
        text += header.kind.rawValue
        text += "\","
        if let reply = header.reply { text += reply ? "\"reply\":true," : "\"reply\":false," }
        if let type = header.type {
            text += "\"type\":\""
            text += type
            text += "\","
        }
        text += "\"v\":"
        text += String(header.v)
        text += "}"
        return text
    }

    /// `id.uuidString` (upper-case hex, 8-4-4-4-12), written straight into the string: Foundation's
    /// getter formats into a C buffer and copies it, a tenth of the sender's JSON work per request.
    static func idText(_ id: UUID) -> String {
        withUnsafeBytes(of: id.uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                var at = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    out[at] = hexDigit(byte >> 4)
                    out[at + 1] = hexDigit(byte & 0x0F)
                    at += 2
                }
                return at
            }
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }

    /// Printable ASCII without a quote or backslash: written as is by any JSON writer.
    private static func isPlain(_ type: String?) -> Bool {
        guard let type else { return true }
        return type.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }
}
