import Foundation

extension WatchConnection {
    /// Registers the handler of requests of type `R` (one per type; a later registration replaces it).
    ///
    /// The handler runs off the main actor, at most once per request id (a repeat is answered with
    /// the recorded response). What it throws reaches the sender as `.handlerError` with the error as
    /// text. A request of a type with no handler is answered `.handlerNotRegistered` naming the type
    /// when it arrives as a live message; by userInfo or context it is held (persisted, at most
    /// `heldRequestCapacity`, up to `queueExpiry`) and runs once its handler registers, oldest first.
    public func register<R: WatchRequest>(_ requestType: R.Type, handler: @escaping @Sendable (R) async throws -> R.Response) {
        install(R.requestType, decode: { try WireEnvelope.body(of: $0, as: R.self) }, handler: handler)
    }

    /// Makes `handler` the handler of `type`: decodes the request's body, runs it, encodes its response
    /// or the failure (`decodingFailed`, `handlerError`) as a response envelope.
    func install<Request: Sendable, Response: Encodable>(
        _ type: String,
        decode: @escaping @Sendable (String) throws -> Request,
        handler: @escaping @Sendable (Request) async throws -> Response
    ) {
        let run: RequestHandler = { envelope, header in
            let responseHeader = WireEnvelope.Header(v: WireEnvelope.version, kind: .response, id: header.id, type: type)
            do {
                let request = try decode(envelope)
                let response = try await handler(request)
                return try WireEnvelope.encode(responseHeader, body: response)
            } catch let error as WatchConnectionError {
                var failed = responseHeader
                failed.error = WireError(code: "decodingFailed", message: error.description, requestType: type)
                return WireEnvelope.encode(failed)
            } catch {
                var failed = responseHeader
                failed.error = WireError(code: "handlerError", message: String(describing: error), requestType: type)
                return WireEnvelope.encode(failed)
            }
        }
        receiver.setHandler(run, for: type)
    }

    /// Something arrived with the layer's key (anything else is not the layer's, and is ignored).
    func receive(_ dictionary: [String: String], route: ResponseRoute, durable: Bool) {
        guard let envelope = dictionary[WireEnvelope.key] else { return }
        let header: WireEnvelope.Header
        do {
            header = try WireEnvelope.header(of: envelope)
        } catch {
            logger.warning("unreadable envelope ignored", metadata: ["error": "\(error)"])
            return
        }
        switch header.kind {
        case .response:
            finish(header.id, Self.result(ofResponse: envelope))
        case .ping:
            receiver.respond(WireEnvelope.encode(WireEnvelope.Header(v: WireEnvelope.version, kind: .pong, id: header.id)), to: route)
        case .pong:
            break
        case .request:
            receiver.receiveRequest(envelope, header: header, route: route, durable: durable)
        }
    }
}
