import WatchPairCore
import WatchPairWire

/// The ``Transport`` one role uses on an ``InMemoryNetwork``: it serves its own role's endpoint and
/// connects to the peer role's.
///
/// Stateless: every transport for the same role and network behaves the same, so a role can serve at
/// most once at a time on a network.
public final class InMemoryTransport: Transport {
    /// The role whose endpoint ``serve(_:)`` serves; ``connect()`` reaches `role.peer`.
    public let role: Role
    /// The network this transport belongs to.
    public let network: InMemoryNetwork

    init(network: InMemoryNetwork, role: Role) {
        self.network = network
        self.role = role
    }

    /// Serves this role's endpoint until the calling task is cancelled.
    ///
    /// While serving, the network reports ``NetworkEvent/listening(_:)`` and the peer's presence shows
    /// the role running. Each connection's server end is passed to `handler` in a child task.
    /// Cancellation unregisters the endpoint at once (reporting ``NetworkEvent/stoppedListening(_:)``);
    /// connections already accepted are still handed over, none is closed, and this returns once every
    /// handler has returned. At most ``InMemoryNetwork/acceptBacklog`` connections wait to be handed
    /// over; a connect beyond that fails with `.peerUnavailable`.
    ///
    /// Throws `TransportError(.listenFailed, …)` if the role already serves on this network.
    public func serve(_ handler: @escaping @Sendable (any TransportConnection) async -> Void) async throws {
        let (accepted, acceptor) = AsyncStream.makeStream(
            of: InMemoryConnection.self,
            bufferingPolicy: .bufferingOldest(InMemoryNetwork.acceptBacklog)
        )
        let token = try network.startServing(role, acceptor: acceptor)
        let network = self.network
        let role = self.role
        await withTaskCancellationHandler {
            await withDiscardingTaskGroup { group in
                for await connection in accepted {
                    group.addTask { await handler(connection) }
                }
            }
        } onCancel: {
            network.stopServing(role, token: token)
        }
        network.stopServing(role, token: token)
    }

    /// Connects to the peer role's endpoint; see ``InMemoryNetwork`` for when this fails or activates the peer.
    public func connect() async throws -> any TransportConnection {
        try await network.connect(from: role)
    }

    /// Installed: the peer's endpoint is installed or served. Running: the peer serves.
    public func peerPresence() async -> PeerPresence {
        network.presence(of: role.peer)
    }

    /// Whether the peer answers: it serves and is not being torn down (``InMemoryNetwork/setTornDown(_:_:)``).
    public func peerAnswers() async -> Bool {
        network.answers(role.peer)
    }

    /// Yields whenever the peer starts or stops serving or its installed flag changes.
    ///
    /// Bound: at most one change is buffered (changes coalesce: each yield means "look again").
    /// Finishes when the consuming task is cancelled.
    public func peerChanges() -> AsyncStream<Void> {
        network.changes(of: role.peer)
    }

    /// Records the announcement on the network (it outlives this transport, as the marker file beside a
    /// socket outlives its daemon) and tells the peer's `peerChanges()`.
    public func announceContentPending(_ pending: Bool) async {
        network.setContentPending(role, pending)
    }

    /// Records this role's installation in the network, where the peer's presence reads it.
    public func publishInstallation(_ installation: AppInstallation) async throws {
        network.setInstallation(role, installation)
    }

    /// This role's installation record in the network.
    public func installation() async -> AppInstallation {
        network.installation(of: role)
    }
}
