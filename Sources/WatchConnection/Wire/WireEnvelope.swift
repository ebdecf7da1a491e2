import Foundation

/// The wire form of the layer: one JSON object (UTF-8 text) under the key `"watchConnection"` of the
/// session dictionary, so any language that can put a string in a `WCSession` message, userInfo or
/// context speaks it. Documented in docs/WatchConnection.md, "Wire form".
///
/// - request: `{"v":1,"kind":"request","id":UUID,"type":String,"reply":Bool,"body":{…}}`
/// - response: `{"v":1,"kind":"response","id":UUID,"type":String,"body":{…}}`, or with
///   `"error":{"code":String,"message":String}` instead of `body`
/// - probe: `{"v":1,"kind":"ping","id":UUID}`, answered `{"v":1,"kind":"pong","id":UUID}`
public enum WireEnvelope {
    /// The dictionary key holding the JSON text.
    public static let key = "watchConnection"
    /// The version written and understood.
    public static let version = 1

    /// The fields every envelope has (`body` is read separately, with its type).
    public struct Header: Codable, Sendable, Hashable {
        /// The wire version (1).
        public var v: Int
        /// `request`, `response`, `ping` or `pong`.
        public var kind: Kind
        /// The request's id; a response carries its request's.
        public var id: UUID
        /// The request type's wire name (requests and responses).
        public var type: String?
        /// Requests: whether the sender waits for a response over a background channel.
        public var reply: Bool?
        /// Responses: the failure, instead of a body.
        public var error: WireError?

        /// A header; `v` defaults to the version written.
        public init(
            v: Int = WireEnvelope.version, kind: Kind, id: UUID, type: String? = nil, reply: Bool? = nil, error: WireError? = nil
        ) {
            self.v = v
            self.kind = kind
            self.id = id
            self.type = type
            self.reply = reply
            self.error = error
        }
    }

    /// What an envelope is.
    public enum Kind: String, Codable, Sendable, Hashable {
        /// A typed request.
        case request
        /// The answer to a request.
        case response
        /// `attemptRecovery()`'s probe.
        case ping
        /// The probe's answer.
        case pong
    }

    /// Header and body in one container, as `JSONEncoder` writes them (the path `HeaderText` declines to).
    struct Full<Body: Encodable>: Encodable {
        var header: Header
        var body: Body?

        enum CodingKeys: String, CodingKey { case v, kind, id, type, reply, error, body }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(header.v, forKey: .v)
            try container.encode(header.kind, forKey: .kind)
            try container.encode(header.id, forKey: .id)
            try container.encodeIfPresent(header.type, forKey: .type)
            try container.encodeIfPresent(header.reply, forKey: .reply)
            try container.encodeIfPresent(header.error, forKey: .error)
            try container.encodeIfPresent(body, forKey: .body)
        }
    }

    private struct BodyOnly<Body: Decodable>: Decodable {
        var body: Body
    }

    /// Encodes an envelope with `body` (nil: none) as JSON text.
    public static func encode<Body: Encodable>(_ header: Header, body: Body?) throws(WatchConnectionError) -> String {
        if let text = HeaderText.envelope(header, body: body) { return text }
        do {
            let data = try makeEncoder().encode(Full(header: header, body: body))
            return String(decoding: data, as: UTF8.self)
        } catch {
            throw .encodingFailed(description: String(describing: error))
        }
    }

    /// The encoder of the wire form: sorted keys, slashes as they are. The body that `HeaderText` writes
    /// alone takes the same one, so both paths give the same bytes.
    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// An envelope without a body (errors, probes).
    public static func encode(_ header: Header) -> String {
        // A header alone holds only strings, numbers and a UUID: encoding it cannot fail.
        (try? encode(header, body: VoidResponse?.none)) ?? "{}"
    }

    /// Reads the header of the JSON text `text`.
    public static func header(of text: String) throws(WatchConnectionError) -> Header {
        if let header = EnvelopeScanner.header(of: text) { return header }
        do {
            let header = try JSONDecoder().decode(Header.self, from: Data(text.utf8))
            guard header.v == version else {
                throw WatchConnectionError.decodingFailed(description: "unsupported envelope version \(header.v)")
            }
            return header
        } catch let error as WatchConnectionError {
            throw error
        } catch {
            throw .decodingFailed(description: String(describing: error))
        }
    }

    /// Reads the `body` of `text` as `Body`.
    ///
    /// Where the header scanner reads `text`, the decoder parses the body's bytes alone, not the header the
    /// scanner has just read; anything else, and every failure, goes through the decoder over the whole
    /// envelope, so errors read as they always did. (So a `Decodable` that reads its `codingPath` finds it
    /// without the `body` key.)
    public static func body<Body: Decodable>(of text: String, as type: Body.Type) throws(WatchConnectionError) -> Body {
        if let body = EnvelopeScanner.body(of: text, { try? JSONDecoder().decode(Body.self, from: Data($0)) }) { return body }
        do {
            return try JSONDecoder().decode(BodyOnly<Body>.self, from: Data(text.utf8)).body
        } catch {
            throw .decodingFailed(description: "\(Body.self): \(error)")
        }
    }
}

/// A failure carried by a response envelope: a stable code and a sentence.
public struct WireError: Codable, Sendable, Hashable, Error {
    /// `handlerNotRegistered`, `handlerError` or `decodingFailed`.
    public var code: String
    /// A sentence naming what failed (and the request type).
    public var message: String
    /// The request type concerned.
    public var requestType: String

    /// A wire error.
    public init(code: String, message: String, requestType: String) {
        self.code = code
        self.message = message
        self.requestType = requestType
    }

    /// No handler is registered for `requestType`.
    public static func handlerNotRegistered(_ requestType: String) -> WireError {
        WireError(code: "handlerNotRegistered", message: "No handler is registered for request type '\(requestType)'.", requestType: requestType)
    }

    /// The error as the sender's API reports it.
    public var connectionError: WatchConnectionError {
        switch code {
        case "handlerNotRegistered": .handlerNotRegistered(requestType: requestType)
        case "decodingFailed": .decodingFailed(description: message)
        default: .handlerError(requestType: requestType, description: message)
        }
    }
}

extension WireEnvelope {
    /// A response envelope as a send's result: the envelope, or the error it carries.
    static func result(ofResponse envelope: String) -> Result<String, WatchConnectionError> {
        do {
            let header = try header(of: envelope)
            if let error = header.error { return .failure(error.connectionError) }
            return .success(envelope)
        } catch {
            return .failure(error)
        }
    }
}

extension Outgoing {
    /// The response a fire-and-forget request ends with.
    var voidResponse: String {
        (try? WireEnvelope.encode(
            WireEnvelope.Header(v: WireEnvelope.version, kind: .response, id: id, type: type),
            body: VoidResponse())) ?? "{\"body\":{}}"
    }
}
