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
        text += header.id.uuidString
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

    /// Printable ASCII without a quote or backslash: written as is by any JSON writer.
    private static func isPlain(_ type: String?) -> Bool {
        guard let type else { return true }
        return type.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }
}
