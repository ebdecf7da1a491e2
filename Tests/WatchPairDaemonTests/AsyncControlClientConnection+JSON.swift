import Testing
import WatchPairControlClient
import WatchPairWire

/// The tests write their requests as JSON literals (`["id": 1, "op": "status"]`), sent as they are, and
/// look at what comes back as JSON: these adapt the control client's async connection to that.
extension AsyncControlClientConnection {
    /// Writes raw text (a newline is not added).
    func write(_ text: String) async throws {
        try await write(Array(text.utf8))
    }

    /// Writes one request line.
    func send(_ request: JSONValue) async throws {
        try await write(request.canonicalUTF8 + [UInt8(ascii: "\n")])
    }

    /// Sends `request` and returns the response with its id (`ok`, `result`/`error`); lines read before
    /// it stay for later calls.
    func call(_ request: JSONValue) async throws -> JSONValue {
        let id = try #require(request["id"]?.integerValue, "a request without an integer id")
        try await send(request)
        return try await response(to: id).json
    }

    /// The next stream event of `kind` (skipped lines are kept for later calls).
    func event(_ kind: String) async throws -> JSONValue {
        try await next { $0.event == kind }.json
    }

    /// The next line without an id (the answer to a line that had none).
    func anonymousResponse() async throws -> JSONValue {
        try await next { $0.id == nil }.json
    }
}
