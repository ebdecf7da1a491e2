import Foundation

/// A response envelope as its sender reads it: whether the request succeeded (what health counts and
/// `messageSent` reports, as ``WireEnvelope/result(ofResponse:)`` says) and the body or the failure the
/// caller gets.
struct ResponseReading<Body: Sendable>: Sendable {
    /// The envelope is a readable response without an error.
    let succeeded: Bool
    /// The response's body, or why the caller gets none.
    let body: Result<Body, WatchConnectionError>
}

extension WireEnvelope {
    /// A response's header fields and its body, decoded in one pass.
    private struct Response<Body: Decodable>: Decodable {
        var header: Header
        var body: Body?

        private enum CodingKeys: String, CodingKey { case body }

        init(from decoder: any Decoder) throws {
            header = try Header(from: decoder)
            body = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Body.self, forKey: .body)
        }
    }

    /// Reads the response envelope `text` with one parse of its JSON (the header and the body
    /// together), where the sender used to read the header and then the body. The wire form is the
    /// same; an envelope that does not read in one pass (a bad version, no body, a body of another
    /// type) takes the two reads, so its failure says what it said before.
    static func reading<Body: Decodable>(response text: String, as type: Body.Type) -> ResponseReading<Body> {
        if let response = try? JSONDecoder().decode(Response<Body>.self, from: Data(text.utf8)), response.header.v == version {
            if let error = response.header.error { return ResponseReading(succeeded: false, body: .failure(error.connectionError)) }
            if let body = response.body { return ResponseReading(succeeded: true, body: .success(body)) }
        }
        switch result(ofResponse: text) {
        case .failure(let error):
            return ResponseReading(succeeded: false, body: .failure(error))
        case .success:
            return ResponseReading(succeeded: true, body: Result { () throws(WatchConnectionError) in try body(of: text, as: Body.self) })
        }
    }

    /// Reads the response envelope `text` for a sender that wants no body: itself when it succeeded.
    static func reading(response text: String) -> ResponseReading<String> {
        let result = result(ofResponse: text)
        return ResponseReading(succeeded: (try? result.get()) != nil, body: result)
    }
}
