import Systemd
import WatchPairCore
import WatchPairWire

/// The three forms a diagnostic event takes outside the engine: journald fields, a stderr line and the
/// JSON of `wcctl events` (DESIGN.md §7). Pure functions.
extension DiagnosticEvent {
    /// The duration in whole microseconds (`WC_DURATION_US`), when set.
    var durationMicroseconds: Int64? {
        guard let duration else { return nil }
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }

    /// The `WC_*` fields that apply, in a fixed order, as (field suffix, JSON key, value). File events add
    /// `WC_FILE_NAME`, `WC_FILE_BYTES` (the size) and `WC_FILE_OFFSET` (JSON `fileName`, `fileBytes`,
    /// `fileOffset`) after the transfer id.
    private var optionalFields: [(journal: String, json: String, value: String)] {
        var fields: [(String, String, String)] = []
        if let channel { fields.append(("CHANNEL", "channel", channel.rawValue)) }
        if let transferId { fields.append(("TRANSFER_ID", "transferId", transferId.uuidString)) }
        if let name = file?.name { fields.append(("FILE_NAME", "fileName", name)) }
        if let bytes = file?.bytes { fields.append(("FILE_BYTES", "fileBytes", String(bytes))) }
        if let offset = file?.offset { fields.append(("FILE_OFFSET", "fileOffset", String(offset))) }
        if let seq { fields.append(("SEQ", "seq", String(seq))) }
        if let errorCode { fields.append(("ERROR_CODE", "errorCode", String(errorCode.rawValue))) }
        if let durationMicroseconds { fields.append(("DURATION_US", "durationUs", String(durationMicroseconds))) }
        if let type = request?.type { fields.append(("REQUEST_TYPE", "requestType", type)) }
        if let id = request?.id { fields.append(("REQUEST_ID", "requestId", id.uuidString)) }
        if let attempt = request?.attempt { fields.append(("ATTEMPT", "attempt", String(attempt))) }
        if let strategy = request?.strategy { fields.append(("STRATEGY", "strategy", strategy)) }
        if let health = request?.health { fields.append(("HEALTH", "health", health)) }
        if let key = request?.syncKey { fields.append(("SYNC_KEY", "syncKey", key)) }
        if let revision = request?.syncRevision { fields.append(("SYNC_REVISION", "syncRevision", revision)) }
        return fields
    }

    /// The journald entry: `MESSAGE`, `MESSAGE_ID`, `PRIORITY`, `SYSLOG_IDENTIFIER`, `WC_EVENT`, `WC_ROLE`,
    /// then `WC_CHANNEL`, `WC_TRANSFER_ID`, `WC_SEQ`, `WC_ERROR_CODE`, `WC_DURATION_US`, and the layer's
    /// `WC_REQUEST_TYPE`, `WC_REQUEST_ID`, `WC_ATTEMPT`, `WC_STRATEGY`, `WC_HEALTH`, `WC_SYNC_KEY`, `WC_SYNC_REVISION` where set.
    /// Never `UNIT=`.
    func journalFields(identifier: String) -> [(String, String)] {
        var fields: [(String, String)] = [
            ("MESSAGE", message),
            ("MESSAGE_ID", kind.messageID),
            ("PRIORITY", String(severity.rawValue)),
            ("SYSLOG_IDENTIFIER", identifier),
            ("WC_EVENT", kind.rawValue),
            ("WC_ROLE", role.rawValue),
        ]
        for field in optionalFields { fields.append(("WC_" + field.journal, field.value)) }
        return fields
    }

    /// One stderr line without its newline:
    /// `<timestamp> <identifier>[<pid>]: <event> <message> role=… channel=… …`, the timestamp UTC with
    /// microseconds (``EventTimestamp``) so both apps' lines merge by time.
    ///
    /// Newlines and backslashes in the message are escaped so an event stays one line; values that hold
    /// spaces, quotes or `=` are double-quoted.
    func stderrLine(identifier: String, pid: Int32) -> String {
        var line = "\(EventTimestamp.format(timestamp)) \(identifier)[\(pid)]: \(kind.rawValue) \(StderrRecord.message(message)) role=\(role.rawValue)"
        for field in optionalFields { line += " \(field.json)=\(StderrRecord.value(field.value))" }
        return line
    }

    /// The JSON object `wcctl events` prints: `timestamp` (``EventTimestamp``, UTC, microseconds),
    /// `event`, `role`, `message`, `priority`, `messageId`, and `channel`, `transferId`, `seq`,
    /// `errorCode`, `durationUs`, `requestType`, `requestId`, `attempt`, `strategy`, `health`, `syncKey`, `syncRevision` where set.
    public var controlJSON: JSONValue {
        var object: [String: JSONValue] = [
            "timestamp": .string(EventTimestamp.format(timestamp)),
            "event": .string(kind.rawValue),
            "role": .string(role.rawValue),
            "message": .string(message),
            "priority": .integer(Int64(severity.rawValue)),
            "messageId": .string(kind.messageID),
        ]
        if let channel { object["channel"] = .string(channel.rawValue) }
        if let transferId { object["transferId"] = .string(transferId.uuidString) }
        if let name = file?.name { object["fileName"] = .string(name) }
        if let bytes = file?.bytes { object["fileBytes"] = ControlJSON.integer(bytes) }
        if let offset = file?.offset { object["fileOffset"] = ControlJSON.integer(offset) }
        if let seq { object["seq"] = ControlJSON.integer(seq) }
        if let errorCode { object["errorCode"] = .integer(Int64(errorCode.rawValue)) }
        if let durationMicroseconds { object["durationUs"] = .integer(durationMicroseconds) }
        if let type = request?.type { object["requestType"] = .string(type) }
        if let id = request?.id { object["requestId"] = .string(id.uuidString) }
        if let attempt = request?.attempt { object["attempt"] = .integer(Int64(attempt)) }
        if let strategy = request?.strategy { object["strategy"] = .string(strategy) }
        if let health = request?.health { object["health"] = .string(health) }
        if let key = request?.syncKey { object["syncKey"] = .string(key) }
        if let revision = request?.syncRevision { object["syncRevision"] = .string(revision) }
        return .object(object)
    }
}
