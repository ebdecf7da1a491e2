import NIOCore
import NIOPosix
import WatchPairWire

/// A tiny control-socket client for tests: writes request lines, reads response and event lines (decoded
/// with the control codec, `ControlResponse(line:)`, and handed out as JSON).
///
/// Lines are read in order; ``response(to:)`` and ``event(_:)`` skip nothing silently: lines that
/// are not the one asked for are kept and handed out by later calls.
final class ControlTestClient {
    private var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private var buffer: [UInt8] = []
    private var pending: [JSONValue] = []

    private init(_ inbound: NIOAsyncChannelInboundStream<ByteBuffer>, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) {
        self.inbound = inbound.makeAsyncIterator()
        self.outbound = outbound
    }

    /// Connects to `path`, runs `body`, then closes the connection.
    static func with<R: Sendable>(_ path: String, _ body: (ControlTestClient) async throws -> R) async throws -> R {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(unixDomainSocketPath: path) { channel in
            channel.eventLoop.makeCompletedFuture {
                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
        return try await channel.executeThenClose { inbound, outbound in
            try await body(ControlTestClient(inbound, outbound))
        }
    }

    /// Writes raw text (a newline is not added).
    func write(_ text: String) async throws {
        try await outbound.write(ByteBuffer(string: text))
    }

    /// Writes one request line.
    func send(_ request: JSONValue) async throws {
        try await write(request.canonicalText + "\n")
    }

    /// Sends `request` and returns the response with its id (`ok`, `result`/`error`).
    func call(_ request: JSONValue) async throws -> JSONValue {
        try await send(request)
        guard case .object(let object) = request, let id = object["id"] else { throw TestClientError.noId }
        return try await next { $0["id"] == id && $0["ok"] != nil }
    }

    /// The next stream event of `kind` (skipped lines are kept for later calls).
    func event(_ kind: String) async throws -> JSONValue {
        try await next { $0["event"] == .string(kind) }
    }

    /// The next line without an id (a response to a line that had none).
    func anonymousResponse() async throws -> JSONValue {
        try await next { $0["id"] == .null }
    }

    /// The next line matching `predicate`, reading as needed.
    func next(where predicate: ([String: JSONValue]) -> Bool) async throws -> JSONValue {
        while true {
            if let index = pending.firstIndex(where: { if case .object(let o) = $0 { predicate(o) } else { false } }) {
                return pending.remove(at: index)
            }
            pending.append(try await readLine())
        }
    }

    private func readLine() async throws -> JSONValue {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                // Through the control codec, so every line is checked to be a response or stream event.
                let response = try ControlResponse(line: buffer[..<newline])
                buffer.removeSubrange(...newline)
                return response.json
            }
            guard let chunk = try await inbound.next() else { throw TestClientError.closed }
            buffer += chunk.readableBytesView
        }
    }

    /// Whether the daemon closed the connection (reads until end of stream).
    func readsEndOfStream() async throws -> Bool {
        while try await inbound.next() != nil {}
        return true
    }
}

enum TestClientError: Error {
    case noId
    case closed
}

// Literal requests in tests: `["id": 1, "op": "status"]`.
extension JSONValue: ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral,
    ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(uniqueKeysWithValues: elements))
    }

    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}
