import WatchPairCore
import WatchPairWire

extension DiagnosticEvent {
    /// ``controlJSON``'s canonical text and a newline: one line of the history file.
    ///
    /// Written member by member instead of through a `JSONValue` tree: building, sorting and writing that
    /// tree for every event was 8–11% of each daemon's CPU with userInfo or messages in flight
    /// (BENCHMARKS.md, "Changes that mattered": issue 10's fifth round). The keys below are in canonical
    /// (UTF-8 byte) order; `EventHistoryLineTests` holds the bytes equal to `controlJSON.canonicalUTF8` for
    /// every field.
    var historyLine: [UInt8] {
        var json = JSONMemberWriter(capacity: 320)
        if let attempt = request?.attempt { json.add("attempt", integer: Int64(attempt)) }
        if let channel { json.add("channel", string: channel.rawValue) }
        if let durationMicroseconds { json.add("durationUs", integer: durationMicroseconds) }
        if let errorCode { json.add("errorCode", integer: Int64(errorCode.rawValue)) }
        json.add("event", string: kind.rawValue)
        if let bytes = file?.bytes { json.add("fileBytes", integer: Int64(clamping: bytes)) }
        if let name = file?.name { json.add("fileName", string: name) }
        if let offset = file?.offset { json.add("fileOffset", integer: Int64(clamping: offset)) }
        if let health = request?.health { json.add("health", string: health) }
        json.add("message", string: message)
        json.add("messageId", string: kind.messageID)
        json.add("priority", integer: Int64(severity.rawValue))
        if let id = request?.id { json.add("requestId", string: id.uuidString) }
        if let type = request?.type { json.add("requestType", string: type) }
        json.add("role", string: role.rawValue)
        if let seq { json.add("seq", integer: Int64(clamping: seq)) }
        if let strategy = request?.strategy { json.add("strategy", string: strategy) }
        if let key = request?.syncKey { json.add("syncKey", string: key) }
        if let revision = request?.syncRevision { json.add("syncRevision", string: revision) }
        json.add("timestamp", string: EventTimestamp.format(timestamp))
        if let transferId { json.add("transferId", string: transferId.uuidString) }
        return json.finish(newline: true)
    }
}
