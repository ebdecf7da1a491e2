import Foundation
import WatchPairCore
import WatchPairHost
import WatchPairWire

/// Which side this app is and where its engine keeps its state and sockets.
///
/// `WCSession.default` reads it from the environment and the daemons' JSON configuration file when it is
/// first needed, so one binary can be built once and run as either side; see `init(environment:)` for
/// every key. Keys, file format and defaults are the daemons' (docs/Configuration.md), so an app can take
/// the place of `phoned` or `watchd` under the same systemd units and configuration.
public struct WCSessionConfiguration: Sendable, Hashable {
    /// This app's side: `.phone` (the iPhone app) or `.watch` (the watch app).
    public var role: Role
    /// Identifies the pair; the counterpart must use the same value.
    public var pairId: String
    /// The engine's state directory (the durable store), created with mode 0700 when missing.
    public var stateDirectory: String
    /// This app's link socket: where the counterpart connects. Bound by the session unless systemd passes
    /// it (`LISTEN_FDS`).
    public var linkSocketPath: String
    /// The counterpart's link socket.
    public var peerLinkSocketPath: String
    /// This app's control socket, bound while the session is active: the counterpart sees the app as
    /// running while it accepts connections. It answers the control protocol's `status` request.
    public var controlSocketPath: String
    /// The counterpart's control socket.
    public var peerControlSocketPath: String
    /// How the app was started; nil detects it: background when systemd passed the link socket with a
    /// connection already waiting (a socket activation by the counterpart), foreground otherwise.
    public var launch: LaunchMode?
    /// Whether accepted transfers must survive power loss (`.power`, default) or only a crash.
    public var durability: Durability
    /// How long `sendMessage` waits for a reply before failing with 7012, and how long the session waits
    /// for the app's `replyHandler`.
    public var replyTimeout: Duration
    /// Payload size limits (7009 above them).
    public var limits: PayloadLimits
    /// How long a new link may take to complete its handshake.
    public var handshakeTimeout: Duration
    /// Liveness checks of an established link.
    public var keepAlive: KeepAlivePolicy
    /// Most outstanding outgoing userInfo transfers (7015 beyond) and most received ones not yet handed
    /// to the delegate.
    public var outboxLimit: Int
    /// Most received userInfo transfers not yet acknowledged by the app.
    public var inboxLimit: Int
    /// Peer uids accepted on the sockets. Default: this process's uid and root (systemd listens as root
    /// under socket activation).
    public var allowedUIDs: Set<UInt32>
    /// The `FileDescriptorName=` of the systemd socket adopted as the link listener (default: the daemon
    /// name); a single passed fd with systemd's default name is adopted too.
    public var listenFDName: String

    /// A configuration for `role` with the default paths under `runDirectory` and `stateRoot`.
    public init(role: Role, runDirectory: String = "/run/watchpair", stateRoot: String = "/var/lib/watchpair") {
        self.role = role
        self.pairId = "default"
        self.stateDirectory = stateRoot + "/" + role.daemonName
        self.linkSocketPath = runDirectory + "/" + role.daemonName + ".sock"
        self.peerLinkSocketPath = runDirectory + "/" + role.peer.daemonName + ".sock"
        self.controlSocketPath = runDirectory + "/" + role.daemonName + ".ctl"
        self.peerControlSocketPath = runDirectory + "/" + role.peer.daemonName + ".ctl"
        self.launch = nil
        self.durability = .power
        self.replyTimeout = .seconds(10)
        self.limits = PayloadLimits()
        self.handshakeTimeout = .seconds(5)
        self.keepAlive = KeepAlivePolicy()
        self.outboxLimit = 10_000
        self.inboxLimit = 10_000
        self.allowedUIDs = [UInt32(getuid()), 0]
        self.listenFDName = role.daemonName
    }

    /// The engine's configuration for this app.
    var engineConfiguration: EngineConfiguration {
        EngineConfiguration(
            role: role, pairId: pairId, launch: launch ?? .foreground, limits: limits, replyTimeout: replyTimeout,
            handshakeTimeout: handshakeTimeout, keepAlive: keepAlive
        )
    }

    /// The host's configuration of this app (its link listener's path and systemd name).
    var hostConfiguration: HostConfiguration {
        var host = HostConfiguration(role: role)
        host.pairId = pairId
        host.paths = HostConfiguration.Paths(
            link: linkSocketPath, peerLink: peerLinkSocketPath, control: controlSocketPath,
            peerControl: peerControlSocketPath, state: stateDirectory)
        host.listenFDName = listenFDName
        host.allowedUIDs = allowedUIDs
        return host
    }

    /// The store's configuration for this app.
    var storeConfiguration: StoreConfiguration {
        StoreConfiguration(directory: stateDirectory, durability: durability, outboxLimit: outboxLimit, inboxLimit: inboxLimit)
    }
}

/// Why a configuration could not be loaded.
public struct WCSessionConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key (environment variable or JSON field) at fault.
    public var key: String
    /// What is wrong with it.
    public var message: String

    /// `key: message`.
    public var description: String { "\(key): \(message)" }
}
