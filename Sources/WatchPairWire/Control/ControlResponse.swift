/// The single response to a request, or one event of a streaming request, each one JSON line.
///
/// A response has `ok`; an event has `event` instead. Both echo the request `id`.
public struct ControlResponse: Codable, Sendable, Hashable {
    /// The request this answers (nil only when the request line could not be parsed at all).
    public var id: Int64?
    /// Present on responses: whether the operation succeeded.
    public var ok: Bool?
    /// The operation's result when `ok` (shape per operation, docs/ControlProtocol.md).
    public var result: JSONValue?
    /// Why it failed, when not `ok`.
    public var error: ControlError?
    /// Present on stream events: the kind (`userInfo`, `applicationContext`, `didFinish`, `message`, `diagnostic`, `end`).
    public var event: String?
    /// The event's content.
    public var data: JSONValue?

    public init(id: Int64?, ok: Bool? = nil, result: JSONValue? = nil, error: ControlError? = nil, event: String? = nil, data: JSONValue? = nil) {
        self.id = id
        self.ok = ok
        self.result = result
        self.error = error
        self.event = event
        self.data = data
    }

    /// A success response.
    public static func success(_ id: Int64, _ result: JSONValue = .object([:])) -> ControlResponse {
        ControlResponse(id: id, ok: true, result: result)
    }

    /// A failure response.
    public static func failure(_ id: Int64?, _ failure: WCFailure) -> ControlResponse {
        ControlResponse(id: id, ok: false, error: ControlError(failure))
    }

    /// A stream event.
    public static func streamEvent(_ id: Int64, _ kind: String, _ data: JSONValue) -> ControlResponse {
        ControlResponse(id: id, event: kind, data: data)
    }
}

/// An error on the control socket: Apple's WCError code, its name and a sentence.
public struct ControlError: Codable, Sendable, Hashable {
    public var code: Int
    public var name: String
    public var message: String

    public init(_ failure: WCFailure) {
        code = failure.code.rawValue
        name = failure.code.name
        message = failure.message
    }

    /// Back to a `WCFailure` (unknown codes become 7001).
    public var failure: WCFailure {
        WCFailure(WCErrorCode(rawValue: code) ?? .genericError, message)
    }
}
