import Foundation
import WatchPairCore
import WatchPairWire

extension DiagnosticEvent {
    /// The file fields of a ``controlJSON`` object, nil when it has none.
    private static func fileFields(_ json: JSONValue) -> FileFields? {
        let fields = FileFields(
            name: json["fileName"]?.stringValue,
            bytes: json["fileBytes"]?.integerValue.flatMap { UInt64(exactly: $0) },
            offset: json["fileOffset"]?.integerValue.flatMap { UInt64(exactly: $0) })
        return fields == FileFields() ? nil : fields
    }

    /// The event a ``controlJSON`` object describes, or nil when `json` is not one (a line of the history
    /// file cut short by a crash, or written by a version with kinds this one does not know).
    init?(controlJSON json: JSONValue) {
        guard let kind = json["event"]?.stringValue.flatMap(Kind.init(rawValue:)),
            let role = json["role"]?.stringValue.flatMap(Role.init(rawValue:)),
            let message = json["message"]?.stringValue,
            let microseconds = json["timestamp"]?.stringValue.flatMap(EventTimestamp.parse)
        else { return nil }
        self.init(
            kind, role: role, message,
            severity: json["priority"]?.integerValue.flatMap { Severity(rawValue: Int($0)) },
            channel: json["channel"]?.stringValue.flatMap(Channel.init(rawValue:)),
            transferId: json["transferId"]?.stringValue.flatMap(UUID.init(uuidString:)),
            file: Self.fileFields(json),
            seq: json["seq"]?.integerValue.flatMap { UInt64(exactly: $0) },
            errorCode: json["errorCode"]?.integerValue.flatMap { WCErrorCode(rawValue: Int($0)) },
            duration: json["durationUs"]?.integerValue.map { .microseconds($0) },
            request: Self.requestFields(json),
            timestamp: Date(timeIntervalSince1970: Double(microseconds) / 1_000_000))
    }

    /// The layer's fields of a ``controlJSON`` object, or nil when it has none.
    private static func requestFields(_ json: JSONValue) -> RequestFields? {
        let fields = RequestFields(
            type: json["requestType"]?.stringValue, id: json["requestId"]?.stringValue.flatMap(UUID.init(uuidString:)),
            attempt: json["attempt"]?.integerValue.flatMap { Int(exactly: $0) }, strategy: json["strategy"]?.stringValue, health: json["health"]?.stringValue,
            syncKey: json["syncKey"]?.stringValue, syncRevision: json["syncRevision"]?.stringValue)
        return fields == RequestFields() ? nil : fields
    }
}
