import WatchPairCore
import WatchPairWire

extension DiagnosticEvent {
    /// ``controlJSON``'s canonical text and a newline: one line of the history file.
    ///
    /// Written member by member instead of through a `JSONValue` tree: building, sorting and writing that
    /// tree for every event was 8–11% of each daemon's CPU with userInfo or messages in flight
    /// (BENCHMARKS.md, "Changes that mattered": issue 10's fifth round). The keys below are in canonical
    /// (UTF-8 byte) order, and the fields of the kind's vocabulary (``fields``, sorted) are merged in
    /// between them; `EventHistoryLineTests` holds the bytes equal to `controlJSON.canonicalUTF8` for every field.
    var historyLine: [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(320)
        appendHistoryLine(to: &line)
        return line
    }

    /// Appends ``historyLine`` to `buffer`: a batch's lines go into one buffer, written with one `write(2)`,
    /// numbers, the timestamp and the transfer id as digits in place (no `String` per piece).
    func appendHistoryLine(to buffer: inout [UInt8]) {
        var json = JSONMemberWriter(appendingTo: &buffer)
        var added = VocabularyMembers(fields)
        added.write(before: "channel", into: &json)
        if let channel { json.add("channel", string: channel.rawValue) }
        added.write(before: "durationUs", into: &json)
        if let durationMicroseconds { json.add("durationUs", integer: durationMicroseconds) }
        added.write(before: "errorCode", into: &json)
        if let errorCode { json.add("errorCode", integer: Int64(errorCode.rawValue)) }
        added.write(before: "event", into: &json)
        json.add("event", string: kind.name)
        added.write(before: "fileBytes", into: &json)
        if let bytes = file?.bytes { json.add("fileBytes", integer: Int64(clamping: bytes)) }
        added.write(before: "fileName", into: &json)
        if let name = file?.name { json.add("fileName", string: name) }
        added.write(before: "fileOffset", into: &json)
        if let offset = file?.offset { json.add("fileOffset", integer: Int64(clamping: offset)) }
        added.write(before: "message", into: &json)
        json.add("message", string: message)
        added.write(before: "messageId", into: &json)
        json.add("messageId", string: kind.messageID)
        added.write(before: "priority", into: &json)
        json.add("priority", integer: Int64(severity.rawValue))
        added.write(before: "role", into: &json)
        json.add("role", string: role.rawValue)
        added.write(before: "seq", into: &json)
        if let seq { json.add("seq", integer: Int64(clamping: seq)) }
        added.write(before: "timestamp", into: &json)
        json.add("timestamp", plainString: { EventTimestamp.append(timestamp, to: &$0) })
        added.write(before: "transferId", into: &json)
        if let transferId { json.add("transferId", plainString: { TextBytes.append(uuid: transferId, to: &$0) }) }
        added.write(before: nil, into: &json)
        buffer = json.finish(newline: true)
    }
}

/// The fields of an event's vocabulary in canonical key order, written into a history line between the
/// engine's own members as their keys come up.
private struct VocabularyMembers {
    private var pending: ArraySlice<EventField>

    init(_ fields: EventFields) {
        pending = fields.isEmpty ? [] : fields.sorted { $0.name.key.utf8.lexicographicallyPrecedes($1.name.key.utf8) }[...]
    }

    /// Writes the pending fields whose keys sort before `key` (all of them when nil).
    mutating func write(before key: String?, into json: inout JSONMemberWriter) {
        while let field = pending.first, key.map({ field.name.key.utf8.lexicographicallyPrecedes($0.utf8) }) ?? true {
            switch field.value {
            case .string(let text): json.add(field.name.key, string: text)
            case .integer(let number): json.add(field.name.key, integer: number)
            }
            pending = pending.dropFirst()
        }
    }
}
