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
        install(requestType, decode: { try WireEnvelope.body(of: $0, as: JSONBody.self) }, handler: handler)
    }

    /// Removes the handler of `requestType`: its requests are answered `.handlerNotRegistered` again.
    public func unregister(requestType: String) {
        receiver.handlers[requestType] = nil
    }
}
