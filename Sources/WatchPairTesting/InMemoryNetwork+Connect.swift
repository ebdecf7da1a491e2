import WatchPairCore
import WatchPairWire

extension InMemoryNetwork {
    /// Registers `role`'s transport as serving, handing new server ends to `acceptor`.
    ///
    /// Returns a token for ``stopServing(_:token:)``. Wakes every task waiting for `role` to serve.
    func startServing(_ role: Role, acceptor: AsyncStream<InMemoryConnection>.Continuation) throws -> UInt64 {
        let (token, waiters) = try state.withLock { state in
            guard state.endpoints[role]!.server == nil else {
                throw TransportError(.listenFailed, "in-memory \(role) endpoint: already served on this network")
            }
            let token = state.makeID()
            state.endpoints[role]!.server = (token, acceptor)
            let waiters = state.endpoints[role]!.waiters.values.map(\.continuation)
            state.endpoints[role]!.waiters.removeAll()
            state.emit(.listening(role))
            state.notifyChange(of: role)
            return (token, waiters)
        }
        waiters.forEach { $0.resume(returning: .serving) }
        activity.fire()
        return token
    }

    /// Unregisters `role`'s server if `token` still names it; no-op otherwise (so it is idempotent).
    func stopServing(_ role: Role, token: UInt64) {
        let acceptor = state.withLock { state -> AsyncStream<InMemoryConnection>.Continuation? in
            guard let server = state.endpoints[role]!.server, server.token == token else { return nil }
            state.endpoints[role]!.server = nil
            state.emit(.stoppedListening(role))
            state.notifyChange(of: role)
            return server.acceptor
        }
        acceptor?.finish()
        activity.fire()
    }

    /// Connects `client`'s transport to `client.peer`'s endpoint, activating the peer if it must.
    ///
    /// Fails with `TransportError(.peerUnavailable, …)` when the peer neither serves nor can be activated,
    /// when its activation handler returns before it serves, or when its accept backlog is full.
    /// Throws `CancellationError` if cancelled while waiting for an activation.
    func connect(from client: Role) async throws -> InMemoryConnection {
        let target = client.peer
        if let connection = try attemptConnect(from: client) {
            activity.fire()
            return connection
        }
        switch await waitForServer(target, reason: .activation) {
        case .serving:
            if let connection = try attemptConnect(from: client) {
                activity.fire()
                return connection
            }
            throw TransportError(.peerUnavailable, "connect \(client)→\(target): \(target) stopped serving at once")
        case .activationEnded:
            throw TransportError(
                .peerUnavailable,
                "connect \(client)→\(target): the activation handler returned before \(target) served")
        case .unavailable(let reason):
            throw TransportError(.peerUnavailable, "connect \(client)→\(target): \(reason)")
        case .cancelled:
            throw CancellationError()
        }
    }

    /// Makes a connection if `client.peer` serves; `nil` if it does not.
    private func attemptConnect(from client: Role) throws -> InMemoryConnection? {
        let target = client.peer
        return try state.withLock { state in
            guard let server = state.endpoints[target]!.server else { return nil }
            let id = state.makeID()
            let ends = InMemoryConnection.makePair(name: "in-memory \(client)→\(target) #\(id)", activity: activity) { [weak self] in
                self?.connectionClosed(id)
            }
            switch server.acceptor.yield(ends.server) {
            case .enqueued:
                state.connections[id] = ends
                state.emit(.connected(from: client, to: target))
                return ends.client
            case .dropped:
                throw TransportError(
                    .peerUnavailable,
                    "connect \(client)→\(target): accept backlog of \(Self.acceptBacklog) is full")
            case .terminated:
                return nil  // The server is stopping; it is as good as gone.
            @unknown default:
                return nil
            }
        }
    }

    /// Waits until `role` serves.
    ///
    /// For `.activation`, first decides whether `role` can be activated at all (installed, with a
    /// handler), starts the handler unless an activation is already running, and also ends when that
    /// activation's handler returns.
    func waitForServer(_ role: Role, reason: WaitReason) async -> WaitResult {
        let id = state.withLock { $0.makeID() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<WaitResult, Never>) in
                enum Decision {
                    case resume(WaitResult)
                    case wait
                    case activate(@Sendable () async -> Void)
                }
                let decision: Decision = state.withLock { state in
                    let endpoint = state.endpoints[role]!
                    if endpoint.server != nil { return .resume(.serving) }
                    if Task.isCancelled { return .resume(.cancelled) }
                    var startActivation: (@Sendable () async -> Void)?
                    if reason == .activation {
                        guard endpoint.installed else { return .resume(.unavailable("\(role) is not installed")) }
                        guard let handler = endpoint.activationHandler else {
                            return .resume(.unavailable("\(role) is installed but not running (no activation)"))
                        }
                        if !endpoint.activating {
                            state.endpoints[role]!.activating = true
                            startActivation = handler
                        }
                    }
                    state.endpoints[role]!.waiters[id] = Waiter(reason: reason, continuation: continuation)
                    return startActivation.map { .activate($0) } ?? .wait
                }
                switch decision {
                case .resume(let result):
                    continuation.resume(returning: result)
                case .wait:
                    break
                case .activate(let handler):
                    // Like systemd starting the service: independent of the connecting task.
                    Task {
                        await handler()
                        self.activationFinished(role)
                    }
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.endpoints[role]!.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume(returning: .cancelled)
        }
    }

    /// The activation handler for `role` returned: connects still waiting on it fail.
    private func activationFinished(_ role: Role) {
        let ended = state.withLock { state in
            state.endpoints[role]!.activating = false
            let ended = state.endpoints[role]!.waiters.filter { $0.value.reason == .activation }
            for id in ended.keys { state.endpoints[role]!.waiters[id] = nil }
            return ended.values.map(\.continuation)
        }
        ended.forEach { $0.resume(returning: .activationEnded) }
        activity.fire()
    }
}
