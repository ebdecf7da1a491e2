import Glibc

/// Where a ``UnixSocketTransport`` listens, where its peer is, and whom it lets in.
///
/// Plain values only: reading config files and the systemd environment happens at the edge
/// (`WatchPairHost`), which hands over paths and, under socket activation, a ready listening fd.
public struct UnixSocketTransportConfiguration: Sendable {
    /// Where this side accepts the peer's connections.
    public enum Listener: Sendable, Hashable {
        /// Bind a new listening socket at `path`.
        ///
        /// A leftover socket file at `path` is removed first, but only if nothing listens on it (a connect
        /// is refused); if a process does listen there, `serve` throws `listenFailed` instead of stealing
        /// it. The socket is `chmod`ed to ``UnixSocketTransportConfiguration/socketMode`` right after
        /// `bind` and unlinked again when `serve` returns (only if the file is still the one bound here).
        case bind(path: String)
        /// Adopt an already bound and listening `SOCK_STREAM` socket, typically passed by systemd.
        ///
        /// `serve` accepts on a duplicate of the descriptor, so the original stays open and owned by the
        /// caller (and systemd): `serve` can run again on it, and the socket file is never unlinked.
        case adopt(fileDescriptor: Int32)
        /// Do not listen: `serve` returns at once when its task is cancelled and accepts nothing.
        case none
    }

    /// Where this side listens.
    public var listener: Listener
    /// The peer's link socket, e.g. `/run/watchpair/watchd.sock`: what `connect()` connects to and
    /// whose existence means "installed".
    public var peerLinkPath: String
    /// The peer's control socket, e.g. `/run/watchpair/watchd.ctl`: it accepting a connection means
    /// "running". `peerPresence()` connects to it and closes at once, so the control server sees
    /// connections that end without a request.
    public var peerControlPath: String
    /// Peer uids (from `SO_PEERCRED`) allowed on every accepted and every connected connection.
    ///
    /// Default: the uid of this process. On the connecting side `SO_PEERCRED` reports whoever called
    /// `listen()`: with systemd socket activation that is systemd itself (uid 0), so daemons running
    /// unprivileged under socket activation must also allow uid 0.
    public var allowedUIDs: Set<UInt32>
    /// The mode a self-bound listening socket gets (`chmod` right after `bind`). Default `0o600`.
    ///
    /// Between `bind` and `chmod` the file has the umask's mode; the `SO_PEERCRED` check guards that
    /// window. Not applied to adopted sockets (their unit's `SocketMode=` decides).
    public var socketMode: mode_t
    /// How many accepted connections may be open at once. Default 32.
    ///
    /// Overflow: a connection accepted while this many are open is closed at once (logged as a
    /// warning) and never reaches the handler.
    public var maximumConnections: Int
    /// The file that announces this side's content waiting for the peer (``UnixSocketTransport/announceContentPending(_:)``):
    /// present while there is some. Nil: this side announces nothing (a control socket). The host sets
    /// it beside the link socket, `<paths.link>.pending`, where the peer looks for it.
    public var contentMarkerPath: String?
    /// Where the peer announces its content waiting for this side: beside its link socket.
    public var peerContentMarkerPath: String { peerLinkPath + Self.contentMarkerSuffix }
    /// What a link socket's content marker adds to its path.
    public static let contentMarkerSuffix = ".pending"
    /// This app's state directory, where it keeps its installation record (``UnixSocketTransport/publishInstallation(_:)``).
    /// Nil: no record (the app always counts as installed).
    public var stateDirectory: String?
    /// The peer's state directory, where its installation record is read (``PeerPresence/installation``).
    /// Nil: no record is read (the peer counts as installed unless its unit says otherwise).
    public var peerStateDirectory: String?
    /// The peer's socket unit, whose enablement decides with the record whether the peer app is installed
    /// (``PeerPresence/unitFileState``). Nil: not under systemd, not read. The host sets it when systemd
    /// passed this app its listener.
    public var peerSocketUnit: UnitFileStateProbe?
    /// Where this app's installation record is.
    public var installationPath: String? { stateDirectory.map { "\($0)/\(InstallationRecordFile.fileName)" } }
    /// Where the peer's installation record is.
    public var peerInstallationPath: String? { peerStateDirectory.map { "\($0)/\(InstallationRecordFile.fileName)" } }
    /// Whether accepted connections are checked against ``allowedUIDs``. Default true.
    ///
    /// False for a control socket: its file mode and group decide who may connect (docs/Systemd.md).
    public var checksAcceptedPeers: Bool
    /// Whether an accepted connection stays open for writing after the client shuts down its sending
    /// side. Default false. True for a control socket, so `printf … | socat` still reads its responses:
    /// ``UnixSocketConnection/inbound`` ends at the half-close and writes keep working.
    public var allowsRemoteHalfClosure: Bool

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - listener: Where this side listens.
    ///   - peerLinkPath: The peer's link socket path.
    ///   - peerControlPath: The peer's control socket path.
    ///   - allowedUIDs: Peer uids allowed; defaults to this process's uid.
    ///   - socketMode: The mode of a self-bound socket; defaults to `0o600`.
    ///   - maximumConnections: Bound on concurrently open accepted connections; defaults to 32.
    ///   - checksAcceptedPeers: Whether accepted peers are checked against `allowedUIDs`; defaults to true.
    ///   - allowsRemoteHalfClosure: Whether an accepted connection can still be written after the client's
    ///     half-close; defaults to false.
    public init(
        listener: Listener,
        peerLinkPath: String,
        peerControlPath: String,
        allowedUIDs: Set<UInt32> = [UInt32(getuid())],
        socketMode: mode_t = 0o600,
        maximumConnections: Int = 32,
        checksAcceptedPeers: Bool = true,
        allowsRemoteHalfClosure: Bool = false
    ) {
        self.listener = listener
        self.peerLinkPath = peerLinkPath
        self.peerControlPath = peerControlPath
        self.allowedUIDs = allowedUIDs
        self.socketMode = socketMode
        self.maximumConnections = maximumConnections
        self.checksAcceptedPeers = checksAcceptedPeers
        self.allowsRemoteHalfClosure = allowsRemoteHalfClosure
    }
}
