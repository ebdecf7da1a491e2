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
        receiver.setHandler(RequestReceiver.handler(of: R.requestType, decode: { try WireEnvelope.body(of: $0, as: R.self) }, run: handler), for: R.requestType)
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
            finish(header.id, WireEnvelope.result(ofResponse: envelope))
        case .ping:
            receiver.respond(WireEnvelope.encode(WireEnvelope.Header(v: WireEnvelope.version, kind: .pong, id: header.id)), to: route)
        case .pong:
            break
        case .request:
            receiver.receiveRequest(envelope, header: header, route: route, durable: durable)
        }
    }
}
