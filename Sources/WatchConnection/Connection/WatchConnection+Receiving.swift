import Foundation

extension WatchConnection {
    /// Registers the handler of requests of type `R` (one per type; a later registration replaces it).
    ///
    /// The handler runs off the main actor, at most once per request id (a repeat is answered with
    /// the recorded response). A request that came as a live message starts its handler on the thread
    /// the session delivered it on (`WCSession`'s delegate queue), where it runs until it first
    /// suspends, as a `WCSessionDelegate` callback would: long synchronous work belongs in a task of its
    /// own. Requests by userInfo or context start on the global executor. What it throws reaches the
    /// sender as `.handlerError` with the error as text. A request of a type with no handler is answered `.handlerNotRegistered` naming the type
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
            receiver.answerPing(header.id, to: route)
        case .pong:
            break
        case .request:
            receiver.receiveRequest(envelope, header: header, route: route, durable: durable)
        }
    }
}
