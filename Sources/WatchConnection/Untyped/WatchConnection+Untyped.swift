extension WatchConnection {
    /// Sends a request by its wire name with a JSON body, and returns the response's body: what a
    /// bridge does for a caller that has no Swift type for the request (`wcctl request`, the daemons'
    /// control socket). Everything else is `send(_:strategy:delivery:retryPolicy:)`'s: the same
    /// envelope, channels, retries, queue and exactly-once execution.
    ///
    /// - Throws: `WatchConnectionError`, as the typed `send` does.
    public func send(
        requestType: String,
        body: JSONBody,
        strategy: DeliveryStrategy = .messageWithUserInfoFallback,
        delivery: DeliveryMode = .queued,
        retryPolicy: RetryPolicy = .default
    ) async throws -> JSONBody {
        let outgoing = try encode(type: requestType, body: body, expectsResponse: true)
        let response = try await perform(outgoing, strategy: strategy, mode: delivery, policy: retryPolicy)
        return try WireEnvelope.body(of: response, as: JSONBody.self)
    }

    /// Registers the handler of requests named `requestType` on the wire, taking and returning JSON
    /// bodies (one per type; a later registration replaces it). Runs at most once per request id, as
    /// `register(_:handler:)` does; what it throws reaches the sender as `.handlerError`.
    public func register(requestType: String, handler: @escaping @Sendable (JSONBody) async throws -> JSONBody) {
        let decode: @Sendable (String) throws -> JSONBody = { try WireEnvelope.body(of: $0, as: JSONBody.self) }
        receiver.setHandler(RequestReceiver.handler(of: requestType, decode: decode, run: handler), for: requestType)
    }

    /// Removes the handler of `requestType`: its live requests are answered `.handlerNotRegistered`
    /// again, and those arriving by userInfo or context are held until a handler registers.
    public func unregister(requestType: String) {
        receiver.setHandler(nil, for: requestType)
    }

    /// Requests held for a handler that has not registered yet (they arrived by userInfo or context).
    public var heldRequestCount: Int { receiver.heldCount }

    /// Requests whose handler runs now (a process killed now runs them again: see "Exactly once").
    public var runningRequestCount: Int { receiver.runningCount }
}
