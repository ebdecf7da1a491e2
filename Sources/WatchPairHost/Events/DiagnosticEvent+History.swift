import Foundation
import WatchPairCore
import WatchPairWire

extension DiagnosticEvent {
    /// The keys every ``controlJSON`` object has, beside its fields.
    private static let headerKeys: Set<String> = ["timestamp", "event", "role", "message", "priority", "messageId"]
    /// The keys of the engine's own stored fields (``CoreEventKind/storedFields``).
    private static let coreKeys = Set(CoreEventKind.storedFields.map(\.key))

    /// The file fields of a ``controlJSON`` object, nil when it has none.
    private static func fileFields(_ json: JSONValue) -> FileFields? {
        let fields = FileFields(
            name: json["fileName"]?.stringValue,
            bytes: json["fileBytes"]?.integerValue.flatMap { UInt64(exactly: $0) },
            offset: json["fileOffset"]?.integerValue.flatMap { UInt64(exactly: $0) })
        return fields == FileFields() ? nil : fields
    }

    /// The event a ``controlJSON`` object describes, or nil when `json` is not one (a line of the history
    /// file cut short by a crash).
    ///
    /// The object names its kind whatever its vocabulary (`event`, `messageId`, `priority`), so the kinds
    /// of the reliability layer and keyed sync read back here without this module knowing them; every
    /// member that is neither a header nor one of the engine's stored fields (``CoreEventKind/storedFields``) is a field
    /// of the kind's vocabulary (``fields``).
    init?(controlJSON json: JSONValue) {
        guard case .object(let object) = json,
            let name = object["event"]?.stringValue,
            let messageID = object["messageId"]?.stringValue,
            let role = object["role"]?.stringValue.flatMap(Role.init(rawValue:)),
            let message = object["message"]?.stringValue,
            let microseconds = object["timestamp"]?.stringValue.flatMap(EventTimestamp.parse)
        else { return nil }
        let severity = object["priority"]?.integerValue.flatMap { Severity(rawValue: Int($0)) }
        self.init(
            Kind(name: name, messageID: messageID, priority: severity ?? .info), role: role, message,
            severity: severity,
            channel: object["channel"]?.stringValue.flatMap(Channel.init(rawValue:)),
            transferId: object["transferId"]?.stringValue.flatMap(UUID.init(uuidString:)),
            file: Self.fileFields(json),
            seq: object["seq"]?.integerValue.flatMap { UInt64(exactly: $0) },
            errorCode: object["errorCode"]?.integerValue.flatMap { WCErrorCode(rawValue: Int($0)) },
            duration: object["durationUs"]?.integerValue.map { .microseconds($0) },
            fields: Self.vocabularyFields(object),
            timestamp: Date(timeIntervalSince1970: Double(microseconds) / 1_000_000))
    }

    /// The members of a ``controlJSON`` object that its kind's vocabulary added, by key.
    private static func vocabularyFields(_ object: [String: JSONValue]) -> EventFields {
        var fields: [EventField] = []
        for (key, value) in object where !headerKeys.contains(key) && !coreKeys.contains(key) {
            switch value {
            case .string(let text): fields.append(EventField(EventField.Name(key), .string(text)))
            case .integer(let number): fields.append(EventField(EventField.Name(key), .integer(number)))
            default: continue
            }
        }
        return EventFields(fields.sorted { $0.name.key < $1.name.key })
    }
}
