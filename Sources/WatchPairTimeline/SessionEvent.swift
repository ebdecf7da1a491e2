import WatchPairWire

/// One diagnostic event of either app, as `wcctl events` prints it (docs/ControlProtocol.md, `events`):
/// the fields the tools sort, filter and draw by, and the JSON object it was read from.
public struct SessionEvent: Sendable, Hashable {
    /// When it happened, in microseconds since 1970-01-01 (UTC).
    public var time: Int64
    /// The app that reported it.
    public var role: Role
    /// The event name (`WC_EVENT`), e.g. `messageSent`.
    public var kind: String
    /// The sentence for a person.
    public var message: String
    /// `message`, `userInfo` or `applicationContext`, when the event concerns a channel.
    public var channel: String?
    /// The userInfo transfer concerned.
    public var transferId: String?
    /// userInfo seq, context version or message id.
    public var seq: Int64?
    /// The WCError code reported.
    public var errorCode: Int?
    /// How long the reported operation took, in microseconds.
    public var durationUs: Int64?
    /// The object as the daemon sent it (what `--json` prints).
    public var json: JSONValue

    /// An event from its fields; `json` is rebuilt from them.
    public init(
        time: Int64, role: Role, kind: String, message: String = "", channel: String? = nil,
        transferId: String? = nil, seq: Int64? = nil, errorCode: Int? = nil, durationUs: Int64? = nil
    ) {
        self.time = time
        self.role = role
        self.kind = kind
        self.message = message
        self.channel = channel
        self.transferId = transferId
        self.seq = seq
        self.errorCode = errorCode
        self.durationUs = durationUs
        var object: [String: JSONValue] = [
            "timestamp": .string(EventTimestamp.format(microseconds: time)), "role": .string(role.rawValue),
            "event": .string(kind), "message": .string(message),
        ]
        object["channel"] = channel.map(JSONValue.string)
        object["transferId"] = transferId.map(JSONValue.string)
        object["seq"] = seq.map(JSONValue.integer)
        object["errorCode"] = errorCode.map { .integer(Int64($0)) }
        object["durationUs"] = durationUs.map(JSONValue.integer)
        self.json = .object(object)
    }

    /// Reads one event object.
    /// - Throws: ``SessionEventError`` naming the field when `timestamp`, `role` or `event` is missing
    ///   or malformed.
    public init(json: JSONValue) throws(SessionEventError) {
        guard let text = json["timestamp"]?.stringValue else { throw SessionEventError(field: "timestamp", json: json) }
        guard let time = EventTimestamp.parse(text) else { throw SessionEventError(field: "timestamp", json: json) }
        guard let role = json["role"]?.stringValue.flatMap(Role.init(rawValue:)) else {
            throw SessionEventError(field: "role", json: json)
        }
        guard let kind = json["event"]?.stringValue else { throw SessionEventError(field: "event", json: json) }
        self.time = time
        self.role = role
        self.kind = kind
        self.message = json["message"]?.stringValue ?? ""
        self.channel = json["channel"]?.stringValue
        self.transferId = json["transferId"]?.stringValue
        self.seq = json["seq"]?.integerValue
        self.errorCode = json["errorCode"]?.integerValue.map { Int($0) }
        self.durationUs = json["durationUs"]?.integerValue
        self.json = json
    }
}

/// An event object that lacks a field the tools need.
public struct SessionEventError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The missing or malformed field.
    public var field: String
    /// The object read.
    public var json: JSONValue

    /// A sentence naming the field and the object.
    public var description: String { "event without a valid '\(field)': \(json.canonicalText.prefix(200))" }
}
