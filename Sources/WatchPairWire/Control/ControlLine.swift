/// One line of the control socket: a JSON object on a line of its own (docs/ControlProtocol.md).
///
/// ``ControlRequest`` and ``ControlResponse`` (responses and stream events) conform; their `json` and
/// `init(json:)` are the codec, and this gives both the same line form: compact canonical JSON
/// (sorted keys, every number's kind kept), read from bytes or text.
public protocol ControlLine {
    /// Why a value or line could not be read.
    associatedtype DecodingError: Error

    /// The value as a JSON object.
    var json: JSONValue { get }

    /// The bytes to write: ``json``'s canonical text and a newline. A requirement, so that a type's own
    /// faster writer (``ControlResponse``'s) is also what generic code such as the control client calls.
    var lineBytes: [UInt8] { get }

    /// Reads the value from its JSON.
    init(json: JSONValue) throws(DecodingError)

    /// The error for a line that is not JSON at all (`failure` says where).
    static func notJSON(_ failure: WCFailure) -> DecodingError
}

extension ControlLine {
    /// One line of canonical JSON (no trailing newline).
    public var line: String { json.canonicalText }

    /// The bytes to write: one line, newline included (the default, through ``json``).
    public var lineBytes: [UInt8] { json.canonicalUTF8 + [UInt8(ascii: "\n")] }

    /// Parses one line (without its newline): ``init(json:)`` of its JSON.
    public init(line: some Collection<UInt8>) throws(DecodingError) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(utf8: line)
        } catch {
            throw Self.notJSON(error)
        }
        try self.init(json: value)
    }

    /// Parses one line (without its newline).
    public init(line: String) throws(DecodingError) {
        try self.init(line: line.utf8)
    }
}
