/// What every control request line shares: its `id` and `op` (docs/ControlProtocol.md), read from the
/// line's bytes without reading the operation's fields, which ``fields()`` then hands to the operation.
///
/// Checks, in order: the line's size (at most ``lineLimit`` bytes), UTF-8, JSON (the whole line, so an
/// operation reads its fields from text known to be well formed), an object, an integer `id` (a `null`
/// one counts as absent), a string `op`. Each failure is 7008 (`invalidParameter`), with the id once it
/// was read. Which operations exist is not known here: the daemon's router decides.
public struct ControlEnvelope: Sendable {
    /// The longest request line accepted: 1 MiB, without its newline.
    public static let lineLimit = 1 << 20

    /// The client-chosen request id, echoed in the response.
    public let id: Int64
    /// The operation's name.
    public let op: String
    private let bytes: [UInt8]

    /// Reads the envelope of one line (without its newline).
    public init(line: some Collection<UInt8>) throws(ControlLineError) {
        func refuse(_ id: Int64?, _ message: String) -> ControlLineError {
            ControlLineError(id: id, failure: WCFailure(.invalidParameter, message))
        }
        guard line.count <= Self.lineLimit else { throw refuse(nil, "the request line is longer than \(Self.lineLimit) bytes") }
        let bytes = Array(line)
        guard String(validating: bytes, as: UTF8.self) != nil else { throw refuse(nil, "the request line is not valid UTF-8") }
        let fields: Fields
        do {
            fields = try Fields(bytes)
        } catch {
            throw refuse(nil, "the request is not JSON: \(error.message)")
        }
        guard fields.isObject else { throw refuse(nil, "the request is not a JSON object") }
        guard let id = try fields.id.get() else { throw refuse(nil, "the request has no 'id'") }
        guard let op = try fields.op.mapError({ refuse(id, $0.failure.message) }).get() else { throw refuse(id, "the request has no 'op'") }
        self.id = id
        self.op = op
        self.bytes = bytes
    }

    /// The operation's fields, read in the order the line has them.
    public func fields() -> ControlFieldReader {
        ControlFieldReader(id: id, bytes: bytes)
    }

    /// One pass over the line: checks the syntax and keeps `id` and `op`, passing over every other value.
    private struct Fields {
        var isObject = false
        var id: Result<Int64?, ControlLineError> = .success(nil)
        var op: Result<String?, ControlLineError> = .success(nil)

        init(_ bytes: [UInt8]) throws(WCFailure) {
            var reader = JSONReader(bytes)
            guard try reader.kind() == .object else {
                try reader.skipValue()
                try reader.expectEnd()
                return
            }
            isObject = true
            try reader.beginObject()
            // Top-level keys only: a repeated one is not JSON, as for a parsed tree. Few enough for a list.
            var keys: [String] = []
            while let (key, offset) = try reader.nextKeyWithOffset() {
                guard !keys.contains(key) else { throw JSONReader.failure(at: offset, "repeated key") }
                keys.append(key)
                switch key {
                case "id":
                    id = try Self.read(&reader, "id", "an integer") { reader throws(WCFailure) in
                        guard try reader.kind() == .number, case .integer(let value) = try reader.readNumber() else { return nil }
                        return value
                    }
                case "op":
                    op = try Self.read(&reader, "op", "a string") { reader throws(WCFailure) in
                        try reader.kind() == .string ? try reader.readString() : nil
                    }
                default:
                    try reader.skipValue()
                }
            }
            try reader.expectEnd()
        }

        /// The value read by `read`; nil for `null`; a failure naming the type when `read` refuses it.
        private static func read<T>(
            _ reader: inout JSONReader, _ field: String, _ expected: String, _ read: (inout JSONReader) throws(WCFailure) -> T?
        ) throws(WCFailure) -> Result<T?, ControlLineError> {
            if try reader.kind() == .null {
                try reader.readNull()
                return .success(nil)
            }
            var attempt = reader
            if let value = try read(&attempt) {
                reader = attempt
                return .success(value)
            }
            try reader.skipValue()
            return .failure(ControlLineError(id: nil, failure: WCFailure(.invalidParameter, "'\(field)' must be \(expected)")))
        }
    }
}
