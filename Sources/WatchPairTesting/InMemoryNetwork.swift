import Synchronization
import WatchPairCore
import WatchPairWire

/// An in-memory "machine" holding both roles' link endpoints, so two engines in one process can be linked.
///
/// Each role's endpoint models a systemd socket unit plus its service:
/// - **serving**: the role's transport is inside `serve` (the app runs); connects succeed.
/// - **installed** (``setInstalled(_:_:)``, default `false`): the socket unit exists even when nothing
///   serves. A connect to an installed, non-serving role fails with `.peerUnavailable`, unless an
///   activation handler is set (``setActivationHandler(_:_:)``), which models socket activation.
/// - neither: the app is not installed (or the device is off); connects fail with `.peerUnavailable`,
///   even when an activation handler is set (there is no socket to activate).
///
/// Tests observe the network through ``events()``, ``openConnectionCount`` and ``waitForServing(_:)``.
/// All state is behind one lock; no continuation is resumed and no handler runs while it is held.
public final class InMemoryNetwork: Sendable {
    /// How many accepted connections may wait to be handed to a serving handler before connects fail.
    public static let acceptBacklog = 128
    /// How many events each ``events()`` stream buffers unread; later events are dropped for that stream.
    public static let eventBufferLimit = 10_000

    /// Why a task waits for a role to serve.
    enum WaitReason {
        /// `connect` joined an activation: it also ends when the activation handler returns.
        case activation
        /// ``waitForServing(_:)``: ends only when the role serves (or the waiter is cancelled).
        case serving
    }

    /// How a wait for a role to serve ended.
    enum WaitResult {
        case serving
        case activationEnded
        case cancelled
        case unavailable(String)
    }

    struct Waiter {
        var reason: WaitReason
        var continuation: CheckedContinuation<WaitResult, Never>
    }

    struct Endpoint {
        var installed = false
        /// The role announced content waiting for its peer (kept while it does not serve).
        var contentPending = false
        /// The role's installation record (``InMemoryTransport/publishInstallation(_:)``).
        var installation = AppInstallation()
        /// The role's socket unit enablement, as its peer reads it (nil: not under systemd).
        var unitFileState: UnitFileState?
        /// The role's process is being torn down (``setTornDown(_:_:)``): it still looks running to a probe,
        /// but answers nothing.
        var tornDown = false
        var server: (token: UInt64, acceptor: AsyncStream<InMemoryConnection>.Continuation)?
        var activationHandler: (@Sendable () async -> Void)?
        var activating = false
        var waiters: [UInt64: Waiter] = [:]
    }

    struct State {
        var endpoints: [Role: Endpoint] = [.phone: Endpoint(), .watch: Endpoint()]
        var connections: [UInt64: (client: InMemoryConnection, server: InMemoryConnection)] = [:]
        var eventSubscribers: [UInt64: AsyncStream<NetworkEvent>.Continuation] = [:]
        var changeSubscribers: [UInt64: (watched: Role, continuation: AsyncStream<Void>.Continuation)] = [:]
        var nextID: UInt64 = 0

        mutating func makeID() -> UInt64 {
            nextID += 1
            return nextID
        }

        /// Reports `event` to every ``InMemoryNetwork/events()`` stream (yielding never re-enters the lock).
        func emit(_ event: NetworkEvent) {
            for subscriber in eventSubscribers.values { subscriber.yield(event) }
        }

        /// Tells the transports watching `role` (through `peerChanges`) to look again.
        func notifyChange(of role: Role) {
            for subscriber in changeSubscribers.values where subscriber.watched == role {
                subscriber.continuation.yield()
            }
        }
    }

    let state = Mutex(State())
    /// Fires after every change the self-driving clock watches: bytes written or read, a reader parking,
    /// a connection made or closed, an endpoint starting or stopping to serve, a presence change.
    package let activity = AsyncSignal()

    /// An empty network: nothing installed, nothing serving, no activation handlers.
    public init() {}

    /// The transport for `role`: it serves `role`'s endpoint and connects to `role.peer`'s.
    public func transport(for role: Role) -> InMemoryTransport {
        InMemoryTransport(network: self, role: role)
    }

    /// Sets whether `role`'s endpoint exists even when nothing serves it (systemd's socket unit).
    ///
    /// A change is reported to the peer transport's `peerChanges()`; setting the current value does nothing.
    public func setInstalled(_ role: Role, _ installed: Bool) {
        update(role, \.installed, to: installed)
    }

    /// Sets one field of `role`'s endpoint; a change is reported to the peer transport's `peerChanges()`,
    /// the current value does nothing.
    func update<Value: Equatable>(_ role: Role, _ field: WritableKeyPath<Endpoint, Value>, to value: Value) {
        let changed = state.withLock { state in
            guard state.endpoints[role]![keyPath: field] != value else { return false }
            state.endpoints[role]![keyPath: field] = value
            state.notifyChange(of: role)
            return true
        }
        if changed { activity.fire() }
    }

    /// Records whether `role` has content waiting for its peer; a change is reported to the peer
    /// transport's `peerChanges()`.
    public func setContentPending(_ role: Role, _ pending: Bool) {
        update(role, \.contentPending, to: pending)
    }

    /// Whether `role` announced content waiting for its peer.
    public func isContentPending(_ role: Role) -> Bool {
        state.withLock { $0.endpoints[role]!.contentPending }
    }

    /// Sets (or with `nil` removes) the socket-activation handler for `role`.
    ///
    /// When a connect reaches `role` while it is installed but not serving, the network runs `handler` in
    /// a new unstructured task (like systemd starting the service; the connecting task's cancellation does
    /// not reach it) and the connect waits. Connects arriving meanwhile join the same activation. The wait
    /// is bounded by the handler: it succeeds as soon as `role` serves, and fails with `.peerUnavailable`
    /// if the handler returns first. So a handler must not return before `role` serves: either run the
    /// peer inside it (it may run for as long as the peer does), or start the peer and then
    /// `await network.waitForServing(role)`.
    public func setActivationHandler(_ role: Role, _ handler: (@Sendable () async -> Void)?) {
        state.withLock { $0.endpoints[role]!.activationHandler = handler }
    }

    /// Closes every open connection, as a link drop: on both ends `inbound` finishes and writes throw
    /// `.connectionClosed`. Bytes in flight are lost. Endpoints keep serving.
    public func dropAllConnections() {
        let connections = state.withLock { state in
            defer { state.connections.removeAll() }
            return Array(state.connections.values)
        }
        for connection in connections {
            connection.client.closeNow()
            connection.server.closeNow()
        }
        // Each close reports itself through `connectionClosed`, which found them removed already.
        state.withLock { state in
            for _ in connections { state.emit(.closed) }
        }
        activity.fire()
    }

    /// The number of connections whose ends are both still open.
    public var openConnectionCount: Int {
        state.withLock { $0.connections.count }
    }

    /// Whether `role`'s transport is currently serving.
    public func isServing(_ role: Role) -> Bool {
        state.withLock { $0.endpoints[role]!.server != nil }
    }

    /// What `role`'s peer would learn from `peerPresence()` about `role`.
    func presence(of role: Role) -> PeerPresence {
        state.withLock { state in
            let endpoint = state.endpoints[role]!
            return PeerPresence(
                listening: endpoint.installed || endpoint.server != nil, running: endpoint.server != nil || endpoint.tornDown,
                contentPending: endpoint.contentPending, installation: endpoint.installation,
                unitFileState: endpoint.unitFileState)
        }
    }

    /// Events from now on, in the order they happen: serve start/stop, connects and closes.
    ///
    /// Past events are not replayed. Bound: ``eventBufferLimit`` unread events per stream; beyond that,
    /// newer events are dropped for this stream. Finishes when the consuming task is cancelled.
    public func events() -> AsyncStream<NetworkEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: NetworkEvent.self,
            bufferingPolicy: .bufferingOldest(Self.eventBufferLimit)
        )
        let id = state.withLock { state in
            let id = state.makeID()
            state.eventSubscribers[id] = continuation
            return id
        }
        continuation.onTermination = { [weak self] _ in
            // Drop the continuation outside the lock: its deinit must not run under it.
            let removed = self?.state.withLock { $0.eventSubscribers.removeValue(forKey: id) }
            _ = removed
        }
        return stream
    }

    /// The `peerChanges()` stream of a transport watching `role`.
    func changes(of role: Role) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            let id = state.makeID()
            state.changeSubscribers[id] = (role, continuation)
            return id
        }
        continuation.onTermination = { [weak self] _ in
            let removed = self?.state.withLock { $0.changeSubscribers.removeValue(forKey: id) }
            _ = removed
        }
        return stream
    }

    /// Suspends until `role` serves on this network; returns at once if it already does.
    ///
    /// Returns early (without `role` serving) if the calling task is cancelled.
    public func waitForServing(_ role: Role) async {
        _ = await waitForServer(role, reason: .serving)
    }

    /// Called by a connection when either of its ends first closes.
    func connectionClosed(_ id: UInt64) {
        state.withLock { state in
            if state.connections.removeValue(forKey: id) != nil { state.emit(.closed) }
        }
        activity.fire()
    }
}
