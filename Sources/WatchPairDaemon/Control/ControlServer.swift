import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization
import WatchPairCore
import WatchPairTransport

/// The control socket (docs/ControlProtocol.md): a NIO server on the socket bound at start-up, one
/// child task per client.
///
/// A client counts as *attached* from its first request until it disconnects; connections that send
/// nothing (the peer probing whether this app runs) do not count. ``activity`` fires whenever the number
/// of attached clients changes (the idle-exit timer watches it).
///
/// Bounds: at most ``maximumConnections`` open connections (more are closed at once), the kernel's
/// listen backlog of 128, and per connection those of ``ControlConnection``.
///
/// Shutdown (graceful or cancellation): the socket file is unlinked first, so the peer sees "not
/// running" at once, then the listener closes and every client task is cancelled; streams end, running
/// requests finish or are abandoned (a live message waiting for its reply).
final class ControlServer: Service, Sendable {
    /// Most control connections open at once.
    static let maximumConnections = 128

    private let socket: ListeningSocket
    private let handler: @Sendable (ControlServer) -> ControlHandler
    private let router: MessageRouter
    private let logger: Logger
    private let eventLoopGroup: MultiThreadedEventLoopGroup

    private struct Clients {
        var nextId: UInt64 = 0
        var open = 0
        var attached: Set<UInt64> = []
    }

    private let clients = Mutex(Clients())
    /// Fires when the number of attached clients changes.
    let activity = AsyncSignal()

    /// - Parameter handler: Makes the request handler once the server exists (the handler reports the
    ///   server's client count).
    init(
        socket: ListeningSocket,
        router: MessageRouter,
        logger: Logger,
        eventLoopGroup: MultiThreadedEventLoopGroup = .singleton,
        handler: @escaping @Sendable (ControlServer) -> ControlHandler
    ) {
        self.socket = socket
        self.router = router
        self.logger = logger
        self.eventLoopGroup = eventLoopGroup
        self.handler = handler
    }

    /// Clients that have sent a request and are still connected.
    var attachedClients: Int { clients.withLock { $0.attached.count } }

    /// The socket's path.
    var path: String { socket.path }

    func run() async throws {
        let socket = self.socket
        defer { socket.removeOwnedFile() }
        let server: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
        do {
            server = try await ServerBootstrap(group: eventLoopGroup)
                .serverChannelOption(.backlog, value: 128)
                // Let a client half-close (`printf … | socat`) and still read the responses.
                .childChannelOption(.allowRemoteHalfClosure, value: true)
                .bind(socket.descriptor) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw DaemonError(.listen, "serving the control socket \(socket.path) failed: \(error)")
        }
        logger.debug("control socket ready", metadata: ["path": "\(socket.path)"])
        let handler = self.handler(self)
        try await cancelWhenGracefulShutdown {
            try await withTaskCancellationHandler {
                do {
                    try await server.executeThenClose { accepted in
                        try await withThrowingDiscardingTaskGroup { group in
                            for try await client in accepted {
                                group.addTask { await self.serve(client, handler: handler) }
                            }
                        }
                    }
                } catch is CancellationError {
                    return
                } catch {
                    if Task.isCancelled { return }
                    throw DaemonError(.listen, "accepting on the control socket \(socket.path) failed: \(error)")
                }
            } onCancel: {
                // First, so that "control socket answers" stops meaning "running" at once.
                socket.removeOwnedFile()
                server.channel.close(promise: nil)
            }
        }
    }

    /// Serves one client; never throws, so one client cannot stop the server.
    private func serve(_ client: NIOAsyncChannel<ByteBuffer, ByteBuffer>, handler: ControlHandler) async {
        let admitted = clients.withLock { clients -> UInt64? in
            guard clients.open < Self.maximumConnections else { return nil }
            clients.open += 1
            clients.nextId += 1
            return clients.nextId
        }
        guard let id = admitted else {
            logger.warning("refused a control connection: too many open", metadata: ["limit": "\(Self.maximumConnections)"])
            try? await client.channel.close()
            return
        }
        defer {
            let changed = clients.withLock { clients in
                clients.open -= 1
                return clients.attached.remove(id) != nil
            }
            if changed { activity.fire() }
        }
        do {
            try await client.executeThenClose { inbound, outbound in
                let connection = ControlConnection(id: id, writer: ControlWriter(outbound))
                await connection.run(
                    inbound,
                    handler: handler,
                    attached: {
                        self.clients.withLock { _ = $0.attached.insert(id) }
                        self.activity.fire()
                    },
                    stopped: { await self.router.detach(clientId: id) }
                )
            }
        } catch {
            logger.debug("control connection ended with an error", metadata: ["error": "\(error)"])
        }
    }
}
