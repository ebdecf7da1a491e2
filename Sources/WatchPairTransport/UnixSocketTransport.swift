import Dispatch
import Glibc
import Logging
import NIOCore
import NIOPosix
import Synchronization
import WatchPairCore

/// The peer link over Unix domain sockets, on swift-nio.
///
/// One value serves this side's link socket (self-bound or adopted from systemd), connects to the
/// peer's, and watches the peer's socket files. Every connection, accepted or made, is checked with
/// `SO_PEERCRED` against ``UnixSocketTransportConfiguration/allowedUIDs``.
///
/// Bounds: the kernel queues at most 128 connections not yet accepted (`listen` backlog); NIO holds at
/// most 10 accepted connections not yet taken by the accept loop, then stops accepting until it catches
/// up; at most ``UnixSocketTransportConfiguration/maximumConnections`` accepted connections are open at
/// once (more are closed at once). Per-connection bounds: see ``UnixSocketConnection``.
public final class UnixSocketTransport: Transport {
    /// The listen backlog of a self-bound socket (and re-applied to an adopted one by NIO).
    static let listenBacklog: Int32 = 128

    /// How long a connect may stay pending before it fails with `.peerUnavailable`.
    static let connectTimeout: TimeAmount = .seconds(5)

    /// The settings this transport was made with.
    public let configuration: UnixSocketTransportConfiguration
    private let eventLoopGroup: any EventLoopGroup
    let logger: Logger
    private let openConnections = Mutex(0)

    /// Creates a transport; nothing is opened until `serve`, `connect` or `peerChanges` is called.
    ///
    /// - Parameters:
    ///   - configuration: Paths, listener and allowed uids.
    ///   - eventLoopGroup: The NIO threads sockets run on; NIO's shared singleton by default.
    ///   - logger: Where rejected connections (warning) and connection events (debug) are logged.
    public init(
        configuration: UnixSocketTransportConfiguration,
        eventLoopGroup: MultiThreadedEventLoopGroup = .singleton,
        logger: Logger
    ) {
        self.configuration = configuration
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
    }

    /// Creates a transport whose sockets (the listener, every accepted and every made connection) all run
    /// on `loop`, shared with the other transports given the same value; see ``SocketEventLoop``.
    public init(configuration: UnixSocketTransportConfiguration, loop: SocketEventLoop, logger: Logger) {
        self.configuration = configuration
        self.eventLoopGroup = loop.eventLoop
        self.logger = logger
    }

    /// Whether this transport's sockets run on `loop` (tests check a `WCSession`'s wiring).
    package func runs(on loop: SocketEventLoop) -> Bool {
        self.eventLoopGroup === loop.eventLoop
    }

    // MARK: Serving

    /// Accepts connections until the calling task is cancelled, running `handler` for each allowed one
    /// in its own child task; the connection is closed when `handler` returns.
    ///
    /// A connection whose `SO_PEERCRED` uid is not allowed is closed at once and logged (warning, with
    /// its pid and uid); `handler` never sees it. A failing connection never stops the server. Cancelling
    /// the calling task stops accepting and cancels the handlers' tasks (their `inbound` ends); `serve`
    /// returns once every handler has returned. Then a self-bound socket file is unlinked (if it is still the one
    /// bound here); an adopted socket is left alone. With ``UnixSocketTransportConfiguration/Listener/none``
    /// this only waits for cancellation.
    ///
    /// - Throws: `TransportError(.listenFailed)` if the listener cannot be set up (see
    ///   ``UnixSocketTransportConfiguration/Listener/bind(path:)``) or stops unexpectedly.
    public func serve(_ handler: @escaping @Sendable (any TransportConnection) async -> Void) async throws {
        try await self.serve(onListening: {}, handler)
    }

    /// ``serve(_:)``, calling `onListening` once the socket accepts connections.
    ///
    /// For readiness reporting (`sd_notify READY=1`) and tests: connects made after `onListening` is
    /// called succeed. Not called with ``UnixSocketTransportConfiguration/Listener/none`` or on failure.
    public func serve(
        onListening: @escaping @Sendable () -> Void,
        _ handler: @escaping @Sendable (any TransportConnection) async -> Void
    ) async throws {
        let listening: ListeningSocket
        switch self.configuration.listener {
        case .none:
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(86_400))
            }
            return
        case .bind(let path):
            listening = try ListeningSocket.bind(
                path: path,
                mode: self.configuration.socketMode,
                backlog: Self.listenBacklog,
                logger: self.logger
            )
        case .adopt(let descriptor):
            listening = try ListeningSocket.adopt(descriptor: descriptor)
        }
        defer { listening.removeOwnedFile() }

        let server: NIOAsyncChannel<WrappedChannel, Never>
        do {
            server = try await ServerBootstrap(group: self.eventLoopGroup)
                .serverChannelOption(.backlog, value: Self.listenBacklog)
                .childChannelOption(.allowRemoteHalfClosure, value: self.configuration.allowsRemoteHalfClosure)
                .bind(listening.descriptor) { channel in Self.wrap(channel, path: listening.path) }
        } catch {
            throw TransportError(.listenFailed, "adopting the listening socket of \(listening.path) into NIO failed: \(error)")
        }
        self.logger.debug("listening", metadata: ["path": "\(listening.path)"])
        onListening()

        do {
            try await server.executeThenClose { accepted in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await child in accepted {
                        group.addTask {
                            await self.handleAccepted(child, path: listening.path, handler: handler)
                        }
                    }
                }
            }
        } catch is CancellationError {
            return
        } catch {
            if Task.isCancelled { return }
            throw TransportError(.listenFailed, "accepting on \(listening.path) failed: \(error)")
        }
        if !Task.isCancelled {
            throw TransportError(.listenFailed, "the listener on \(listening.path) closed unexpectedly")
        }
    }

    /// Admits, checks and runs one accepted connection; never throws, so one connection cannot end `serve`.
    private func handleAccepted(
        _ wrapped: WrappedChannel,
        path: String,
        handler: @Sendable (any TransportConnection) async -> Void
    ) async {
        let limit = self.configuration.maximumConnections
        let admitted = self.openConnections.withLock { open in
            guard open < limit else { return false }
            open += 1
            return true
        }
        defer {
            if admitted { self.openConnections.withLock { $0 -= 1 } }
        }
        let channel = wrapped.channel
        do {
            let credentials = try await wrapped.credentials.get()
            var metadata: Logger.Metadata = [
                "path": "\(path)", "pid": "\(credentials.pid)", "uid": "\(credentials.uid)", "gid": "\(credentials.gid)",
            ]
            guard admitted else {
                metadata["limit"] = "\(limit)"
                self.logger.warning("refused a connection: too many open connections", metadata: metadata)
                try? await channel.close()
                return
            }
            guard !self.configuration.checksAcceptedPeers || self.configuration.allowedUIDs.contains(credentials.uid) else {
                self.logger.warning("refused a connection from a peer whose uid is not allowed", metadata: metadata)
                try? await channel.close()
                return
            }
            self.logger.debug("accepted a connection", metadata: metadata)
            let connection = UnixSocketConnection(channel: channel, reads: wrapped.reads, path: path, peerCredentials: credentials)
            await handler(connection)
            await connection.close()
        } catch {
            self.logger.debug("accepted connection failed", metadata: ["path": "\(path)", "error": "\(error)"])
            try? await channel.close()
        }
    }

    // MARK: Connecting

    /// Connects to ``UnixSocketTransportConfiguration/peerLinkPath`` and checks the peer's credentials.
    ///
    /// - Returns: A ``UnixSocketConnection``.
    /// - Throws: `TransportError(.peerUnavailable)` if the path is absent, refuses (`ENOENT`,
    ///   `ECONNREFUSED`) or the connect fails otherwise (the detail has the errno);
    ///   `TransportError(.credentialsRejected)` if the listener's uid is not allowed (the connection is closed).
    public func connect() async throws -> any TransportConnection {
        let path = self.configuration.peerLinkPath
        let wrapped: WrappedChannel
        do {
            // A listener whose backlog is full (a socket-activated peer that never accepts) leaves the
            // connect pending; the timeout bounds it.
            wrapped = try await ClientBootstrap(group: self.eventLoopGroup)
                .connectTimeout(Self.connectTimeout)
                .connect(unixDomainSocketPath: path) { channel in Self.wrap(channel, path: path) }
        } catch {
            throw TransportError(.peerUnavailable, "connect(\(path)) failed: \(Self.describe(error))")
        }
        let channel = wrapped.channel
        let credentials: PeerCredentials
        do {
            credentials = try await wrapped.credentials.get()
        } catch {
            try? await channel.close()
            throw error
        }
        guard self.configuration.allowedUIDs.contains(credentials.uid) else {
            try? await channel.close()
            throw TransportError(
                .credentialsRejected,
                "the listener at \(path) is \(credentials), uid not in allowed \(self.configuration.allowedUIDs.sorted())"
            )
        }
        self.logger.debug("connected", metadata: ["path": "\(path)", "pid": "\(credentials.pid)", "uid": "\(credentials.uid)"])
        return UnixSocketConnection(channel: channel, reads: wrapped.reads, path: path, peerCredentials: credentials)
    }

    // MARK: Peer presence

    /// Whether something listens on the peer's link socket (`listening`) and its control socket accepts
    /// (`running`), both probed, never read from a file's existence, and whether the peer app is installed.
    ///
    /// `listening`: a live stream socket is bound to ``UnixSocketTransportConfiguration/peerLinkPath``
    /// (systemd's socket unit, or the app's own listener), asked without connecting
    /// (``UnixSocketProbe/streamBinding(of:)``), so asking never socket-activates the peer. A socket file
    /// nobody listens on (a killed app's, or a stopped socket unit's) is "device off": not listening.
    /// `installation`: the peer's record in its state directory; `unitFileState`: its socket unit's links
    /// (``UnitFileStateProbe``). Both are read from disk, so they hold while the peer is not running.
    /// `running`: a non-blocking connect to ``UnixSocketTransportConfiguration/peerControlPath`` succeeds
    /// (closed at once); the daemon binds that socket itself, so connecting launches nothing.
    public func peerPresence() async -> PeerPresence {
        PeerPresence(
            listening: UnixSocketProbe.streamBinding(of: self.configuration.peerLinkPath) == .live,
            running: UnixSocketProbe.connect(to: self.configuration.peerControlPath) == .listening,
            contentPending: access(self.configuration.peerContentMarkerPath, F_OK) == 0,
            installation: self.peerInstallation(),
            unitFileState: self.configuration.peerSocketUnit?.state()
        )
    }

    /// How long ``peerAnswers()`` waits for the peer's control socket to answer.
    static let answerTimeout: Duration = .seconds(2)

    /// Whether the peer's control socket answers a `status` request within ``answerTimeout``
    /// (``UnixSocketProbe/answers(at:request:timeout:)``): a live process, not one being torn down.
    /// Asked on a thread of its own, so a hung peer blocks no event loop.
    public func peerAnswers() async -> Bool {
        let path = self.configuration.peerControlPath
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let request = Array(#"{"id":0,"op":"status"}"#.utf8) + [UInt8(ascii: "\n")]
                continuation.resume(returning: UnixSocketProbe.answers(at: path, request: request, timeout: Self.answerTimeout))
            }
        }
    }

    /// Creates or removes ``UnixSocketTransportConfiguration/contentMarkerPath`` (nothing when it is
    /// nil). The marker is a regular file beside the link socket, so it outlives this process and the
    /// peer's inotify watch sees it come and go. A failure is logged: the content itself is safe in the
    /// store, only a peer starting while this app is stopped would not launch it to deliver.
    public func announceContentPending(_ pending: Bool) async {
        guard let path = self.configuration.contentMarkerPath else { return }
        if pending {
            let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            if fd >= 0 {
                close(fd)
            } else {
                self.logger.warning("could not announce pending content", metadata: ["path": "\(path)", "errno": "\(errno)"])
            }
        } else if unlink(path) != 0, errno != ENOENT {
            self.logger.warning("could not withdraw the pending-content announcement", metadata: ["path": "\(path)", "errno": "\(errno)"])
        }
    }

    /// Yields whenever the peer's link or control socket file may have appeared, vanished or changed.
    ///
    /// Backed by inotify on the sockets' directories, armed before this returns (no polling); see
    /// ``PeerChangeWatcher``. Bounded: at most one pending signal (`bufferingNewest(1)`), so bursts
    /// coalesce. Finishes when the consuming task is cancelled; the inotify descriptor is closed then.
    public func peerChanges() -> AsyncStream<Void> {
        PeerChangeWatcher.changes(
            of: [self.configuration.peerLinkPath, self.configuration.peerControlPath, self.configuration.peerContentMarkerPath]
                + [self.configuration.peerInstallationPath].compactMap { $0 }
                + (self.configuration.peerSocketUnit?.watchedPaths ?? []),
            logger: self.logger
        )
    }

    /// A socket channel, its reads for the connection's consumer, and its peer's credentials (read when it
    /// becomes active).
    struct WrappedChannel: Sendable {
        var channel: any Channel
        var reads: InboundReads
        var credentials: EventLoopFuture<PeerCredentials>
    }

    /// The channel initializer of both sides: credentials first, then the reads' handler.
    static func wrap(_ channel: any Channel, path: String) -> EventLoopFuture<WrappedChannel> {
        channel.eventLoop.makeCompletedFuture {
            let credentials = channel.eventLoop.makePromise(of: PeerCredentials.self)
            let reads = InboundReads(channel: channel, description: "unix:\(path)")
            try channel.pipeline.syncOperations.addHandler(PeerCredentialsHandler(promise: credentials))
            try channel.pipeline.syncOperations.addHandler(reads.makeHandler())
            return WrappedChannel(channel: channel, reads: reads, credentials: credentials.futureResult)
        }
    }

    /// An error with its errno spelled out when NIO reports one.
    static func describe(_ error: any Error) -> String {
        if let error = error as? IOError {
            return "\(UnixSocketProbe.describe(errno: error.errnoCode)), \(error)"
        }
        return "\(error)"
    }
}
