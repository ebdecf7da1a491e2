import Foundation
import Systemd
import WatchPairCore
import WatchPairWire

/// The three forms a diagnostic event takes outside the engine: journald fields, a stderr line and the
/// JSON of `wcctl events` (docs/Systemd.md, docs/ControlProtocol.md). Pure functions.
extension DiagnosticEvent {
    /// The duration in whole microseconds (`WC_DURATION_US`), when set.
    var durationMicroseconds: Int64? {
        guard let duration else { return nil }
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }

    /// The `WC_*` fields that apply, in a fixed order, as (name, value). File events add `WC_FILE_NAME`,
    /// `WC_FILE_BYTES` (the size) and `WC_FILE_OFFSET` (JSON `fileName`, `fileBytes`, `fileOffset`) after
    /// the transfer id; the fields of the event's vocabulary (``DiagnosticEvent/fields``) come last.
    private var optionalFields: [(name: EventField.Name, value: String)] {
        var out: [(EventField.Name, String)] = []
        forEachOptionalField(text: { out.append(($0, $1)) }, plain: { out.append(($0, $1.text)) })
        return out
    }

    /// A field's value that is written as it is, never escaped: a number or the transfer id.
    enum PlainValue {
        case signed(Int64)
        case unsigned(UInt64)
        case uuid(UUID)

        /// Appends the value's text, written in place.
        func append(to out: inout [UInt8]) {
            switch self {
            case .signed(let value): TextBytes.append(decimal: value, to: &out)
            case .unsigned(let value): TextBytes.append(decimal: value, to: &out)
            case .uuid(let value): TextBytes.append(uuid: value, to: &out)
            }
        }

        /// The value's text.
        var text: String {
            switch self {
            case .signed(let value): String(value)
            case .unsigned(let value): String(value)
            case .uuid(let value): value.uuidString
            }
        }
    }

    /// Visits the optional fields in ``optionalFields``' order: text that a form may have to escape, and
    /// plain values. The one enumeration behind the journal's fields, its datagram and the stderr line, which
    /// write plain values in place.
    func forEachOptionalField(text: (EventField.Name, String) -> Void, plain: (EventField.Name, PlainValue) -> Void) {
        if let channel { text(.channel, channel.rawValue) }
        if let transferId { plain(.transferId, .uuid(transferId)) }
        if let name = file?.name { text(.fileName, name) }
        if let bytes = file?.bytes { plain(.fileBytes, .unsigned(bytes)) }
        if let offset = file?.offset { plain(.fileOffset, .unsigned(offset)) }
        if let seq { plain(.seq, .unsigned(seq)) }
        if let errorCode { plain(.errorCode, .signed(Int64(errorCode.rawValue))) }
        if let durationMicroseconds { plain(.durationUs, .signed(durationMicroseconds)) }
        for field in fields {
            switch field.value {
            case .string(let value): text(field.name, value)
            case .integer(let value): plain(field.name, .signed(value))
            }
        }
    }

    /// The journald entry: `MESSAGE`, `MESSAGE_ID`, `PRIORITY`, `SYSLOG_IDENTIFIER`, `WC_EVENT`, `WC_ROLE`,
    /// `WC_PAIR` (the pair's name, `default` for the default pair), then `WC_CHANNEL`, `WC_TRANSFER_ID`, `WC_SEQ`, `WC_ERROR_CODE`, `WC_DURATION_US`, and the fields of
    /// the kind's vocabulary (the layer's `WC_REQUEST_TYPE`, `WC_REQUEST_ID`, …, keyed sync's `WC_SYNC_KEY`, …) where set.
    /// Never `UNIT=`.
    func journalFields(identifier: String, pair: String = PairName.defaultPairName) -> [(String, String)] {
        var fields: [(String, String)] = [
            ("MESSAGE", message),
            ("MESSAGE_ID", kind.messageID),
            ("PRIORITY", String(severity.rawValue)),
            ("SYSLOG_IDENTIFIER", identifier),
            ("WC_EVENT", kind.name),
            ("WC_ROLE", role.rawValue),
            ("WC_PAIR", pair),
        ]
        for field in optionalFields { fields.append(("WC_" + field.name.journal, field.value)) }
        return fields
    }

    /// The JSON object `wcctl events` prints: `timestamp` (``EventTimestamp``, UTC, microseconds),
    /// `event`, `role`, `message`, `priority`, `messageId`, and `channel`, `transferId`, `seq`,
    /// `errorCode`, `durationUs` and the fields of the kind's vocabulary (the layer's `requestType`,
    /// `requestId`, `attempt`, …, keyed sync's `syncKey`, `syncRevision`) where set.
    public var controlJSON: JSONValue {
        var object: [String: JSONValue] = [
            "timestamp": .string(EventTimestamp.format(timestamp)),
            "event": .string(kind.name),
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
        for field in fields { object[field.name.key] = field.value.json }
        return .object(object)
    }
}

extension EventField.Value {
    /// The value in `wcctl events --json` and the history file: a number or a string.
    var json: JSONValue {
        switch self {
        case .string(let text): .string(text)
        case .integer(let number): .integer(number)
        }
    }
}
