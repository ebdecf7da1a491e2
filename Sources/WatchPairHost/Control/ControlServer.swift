import Glibc
import Logging
import ServiceLifecycle
import Synchronization
import WatchPairCore
import WatchPairTransport
import WatchPairWire

/// The control socket (docs/ControlProtocol.md), served through WatchPairTransport on the socket bound
/// at start-up, one child task per client, its lines read and served on the host's loop
/// (``ControlConnection``).
///
/// A client counts as *attached* from its first request until it disconnects; connections that send
/// nothing (the peer probing whether this app runs) do not count. ``activity`` fires whenever the number
/// of attached clients changes (the idle-exit timer watches it).
///
/// Bounds: at most ``maximumConnections`` open connections (more are closed at once), the kernel's
/// listen backlog of 128, and per connection those of ``ControlConnection``. Who may connect: the file's
/// mode (0660) and group first, then each connection's `SO_PEERCRED` against ``ControlAccessPolicy``
/// (root, the daemon's user, the socket's group); a refused client reads one error line, the
/// connection closes and the refusal is reported (a `controlClientRefused` event). A client may
/// half-close and still read its responses.
///
/// Shutdown (graceful or cancellation): the socket file is unlinked first, so the peer sees "not
/// running" at once, then the listener closes and every client task is cancelled; streams end, running
/// requests finish or are abandoned (a live message waiting for its reply).
public final class ControlServer: Service, Sendable {
    /// Most control connections open at once.
    static let maximumConnections = 128

    private let socket: ListeningSocket
    private let router: ControlRouter
    private let logger: Logger
    private let transport: UnixSocketTransport
    private let access: ControlAccessPolicy
    private let refused: @Sendable (PeerCredentials, String) -> Void
    /// Where the clients' lines are served: the loop their sockets (and the engine) run on.
    private let isolation: ExecutorIsolation

    private struct Clients {
        var nextId: UInt64 = 0
        var attached: Set<UInt64> = []
    }

    private let clients = Mutex(Clients())
    private let closed = Mutex(false)
    /// Fires when the number of attached clients changes.
    let activity = AsyncSignal()

    /// - Parameter router: The operations served.
    init(
        socket: ListeningSocket,
        logger: Logger,
        access: ControlAccessPolicy,
        refused: @escaping @Sendable (PeerCredentials, String) -> Void,
        loop: SocketEventLoop,
        router: ControlRouter
    ) {
        self.socket = socket
        self.logger = logger
        self.access = access
        self.refused = refused
        self.router = router
        self.isolation = ExecutorIsolation(loop.serialExecutor)
        self.transport = UnixSocketTransport(
            configuration: UnixSocketTransportConfiguration(
                listener: .adopt(fileDescriptor: socket.descriptor),
                peerLinkPath: socket.path,
                peerControlPath: socket.path,
                maximumConnections: Self.maximumConnections,
                checksAcceptedPeers: false,
                allowsRemoteHalfClosure: true
            ),
            loop: loop,
            logger: logger
        )
    }

    /// Binds the control socket at `path` (mode 0660 in the daemon's group, a stale file removed) for a
    /// server not yet running; `refused` hears of each client the access policy turns away. Clients'
    /// sockets run on `loop`, and their requests are served there: give it the loop of the host's peer
    /// link, which the engine runs on, so that a request enters the engine and a reply written after a
    /// peer-link read goes out without a thread hand-off (``SocketEventLoop``).
    /// - Throws: ``HostError`` `.listen` naming the path.
    public static func bind(
        path: String,
        logger: Logger,
        refused: @escaping @Sendable (PeerCredentials, String) -> Void = { _, _ in },
        loop: SocketEventLoop,
        router: ControlRouter
    ) throws(HostError) -> ControlServer {
        let socket = try ListeningSocket.bindOwned(path, mode: 0o660, logger: logger)
        // The file's group (the daemon's, or the directory's when it is set-group-id) is who may connect.
        var info = stat()
        guard fstatat(AT_FDCWD, path, &info, 0) == 0 else {
            let code = errno
            socket.removeOwnedFile()
            _ = Glibc.close(socket.descriptor)
            throw HostError(.listen, "cannot stat the control socket \(path): \(String(cString: strerror(code)))")
        }
        let access = ControlAccessPolicy(ownUID: geteuid(), group: info.st_gid)
        return ControlServer(socket: socket, logger: logger, access: access, refused: refused, loop: loop, router: router)
    }

    /// Clients that have sent a request and are still connected.
    public var attachedClients: Int { clients.withLock { $0.attached.count } }

    /// The socket's path.
    var path: String { socket.path }

    /// Serves until graceful shutdown or cancellation, then ``close()``s the socket.
    /// - Throws: ``HostError`` `.listen` when the socket cannot be served.
    public func run() async throws {
        let socket = self.socket
        // The transport accepts on a duplicate: the descriptor bound at start-up is closed here.
        defer { close() }
        logger.debug("control socket ready", metadata: ["path": "\(socket.path)"])
        do {
            try await cancelWhenGracefulShutdown {
                try await withTaskCancellationHandler {
                    try await self.transport.serve { client in await self.serve(client) }
                } onCancel: {
                    // First, so that "control socket answers" stops meaning "running" at once.
                    socket.removeOwnedFile()
                }
            }
        } catch is CancellationError {
            return
        } catch {
            if Task.isCancelled { return }
            throw HostError(.listen, "serving the control socket \(socket.path) failed: \(error)")
        }
    }

    /// Unlinks the socket file (if still this one) and closes the descriptor; for a server that never
    /// ran, or after ``run()``. Idempotent.
    public func close() {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        socket.removeOwnedFile()
        _ = Glibc.close(socket.descriptor)
    }

    /// Serves one client; never throws, so one client cannot stop the server.
    private func serve(_ client: any TransportConnection) async {
        if let unix = client as? UnixSocketConnection, !access.admits(unix.peerCredentials) {
            let reason = access.refusal(unix.peerCredentials)
            refused(unix.peerCredentials, reason)
            await ControlWriter(client).send(.failure(nil, WCFailure(.genericError, reason)))
            await client.flush()
            return
        }
        let id = clients.withLock { clients -> UInt64 in
            clients.nextId += 1
            return clients.nextId
        }
        defer {
            let changed = clients.withLock { $0.attached.remove(id) != nil }
            if changed { activity.fire() }
        }
        let connection = ControlConnection(id: id, writer: ControlWriter(client))
        await connection.run(
            client,
            on: isolation,
            router: router,
            attached: {
                self.clients.withLock { _ = $0.attached.insert(id) }
                self.activity.fire()
            },
            stopped: { [router] in await router.connectionStopped(id) }
        )
        // Responses written last may still wait for a slow reader; the transport closes after this returns.
        await client.flush()
    }
}
