import WatchPairWire

/// One control operation's request: its name on the control socket and how it reads from the line
/// (docs/ControlProtocol.md). Registered with its handler on a ``ControlRouter`` by the module that owns
/// its vocabulary.
public protocol ControlOperation: Sendable {
    /// What a success answers with: a JSON result for most operations, a line of its own for the ones
    /// written once per message or transfer.
    associatedtype Result: ControlResult = JSONValue

    /// The operation's name, the request's `op`.
    static var name: String { get }

    /// Reads and checks the operation's fields: 7008 naming the field for a wrong type, a missing
    /// required field or a value out of range. Fields the operation does not know are skipped.
    init(fields: inout ControlFieldReader) throws(WCFailure)
}

extension ControlOperation {
    /// 7008: this operation needs `field`.
    public static func missing(_ field: String) -> WCFailure {
        ControlFieldReader.missing(field, in: name)
    }

    /// The one field `field` this operation needs, read by `read` (any other field is skipped).
    public static func required<T>(
        _ field: String, from fields: inout ControlFieldReader, _ read: (inout ControlFieldReader) throws(WCFailure) -> T?
    ) throws(WCFailure) -> T {
        try fields.required(field, in: name, read)
    }
}

/// An operation without fields: reads none (and ignores any a client sends).
public protocol FieldlessControlOperation: ControlOperation {
    init()
}

extension FieldlessControlOperation {
    public init(fields: inout ControlFieldReader) throws(WCFailure) {
        while try fields.next() != nil { try fields.skip() }
        self.init()
    }
}

/// A success response's line for request `id`.
public protocol ControlResult: Sendable {
    /// The whole response line, newline included.
    func responseLine(id: Int64) -> [UInt8]
}

extension JSONValue: ControlResult {
    /// `{"id": id, "ok": true, "result": self}`.
    public func responseLine(id: Int64) -> [UInt8] {
        ControlResponse.success(id, self).lineBytes
    }
}

/// The request being served: its id and the connection it came on.
public struct ControlCall: Sendable {
    /// The request's id, echoed by its response and stream events.
    public let id: Int64
    /// The client's connection.
    public let connection: ControlConnection

    /// Where responses and stream events go.
    public var writer: ControlWriter { connection.writer }
}
