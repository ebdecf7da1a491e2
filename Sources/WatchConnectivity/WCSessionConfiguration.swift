import Foundation
import WatchPairCore
import WatchPairHost
import WatchPairQuirks
import WatchPairWire

/// Which side this app is and where its engine keeps its state and sockets.
///
/// `WCSession.default` reads it at its first activation with the daemons' reader (WatchPairHost's
/// `HostConfiguration.loadApp`): `WATCHPAIR_*` environment variables over the daemons' JSON file over the
/// defaults, so one binary can be built once and run as either side. Keys, file format and defaults are
/// the daemons' (docs/Configuration.md), `backoff.*` included, so an app can take the place of `phoned`
/// or `watchd` under the same systemd units and configuration; see `init(environment:)`.
public struct WCSessionConfiguration: Sendable, Hashable {
    /// This app's side: `.phone` (the iPhone app) or `.watch` (the watch app).
    public var role: Role
    /// Identifies the pair; the counterpart must use the same value.
    public var pairId: String
    /// The engine's state directory (the durable store), created with mode 0700 when missing. The app's
    /// installation record is kept there too.
    public var stateDirectory: String
    /// The counterpart's state directory, where its installation record is read (whether it is
    /// installed, `wcctl uninstall`); nil reads none (then only a masked socket unit, or none at all, makes
    /// the counterpart "not installed").
    public var peerStateDirectory: String?
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
    /// Reconnection schedule while background content waits for an absent counterpart.
    public var backoff: BackoffPolicy
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
    /// Phone side: complication transfers a UTC day before `transferCurrentComplicationUserInfo` sends
    /// plain userInfo (`complications.dailyBudget`, default 50 as on Apple's devices).
    public var complicationDailyBudget = 50
    /// The quirks of real devices on from activation (`quirks.*`, docs/Quirks.md); none by default.
    public var quirks: [Quirk: QuirkSetting] = [:]
    /// Phone side: the watches this phone is paired with (`watches`), one active at a time, each a
    /// `watchd` instance with its own store and this app keeping one state directory per watch
    /// (docs/Watches.md). Empty (the default): one watch, at the paths above.
    public var watches: [String] = []

    /// A configuration for `role` with the default paths under `runDirectory` and `stateRoot`, and the
    /// host's defaults for everything else (docs/Configuration.md).
    public init(role: Role, runDirectory: String = "/run/watchpair", stateRoot: String = "/var/lib/watchpair") {
        var host = HostConfiguration(role: role)
        host.paths = HostConfiguration.Paths(role: role, runDirectory: runDirectory, stateRoot: stateRoot)
        self.init(host)
    }

    /// The host's configuration of this app.
    var hostConfiguration: HostConfiguration {
        var host = HostConfiguration(role: role)
        host.pairId = pairId
        host.paths = HostConfiguration.Paths(
            link: linkSocketPath, peerLink: peerLinkSocketPath, control: controlSocketPath,
            peerControl: peerControlSocketPath, state: stateDirectory, peerState: peerStateDirectory)
        host.durability = durability
        host.limits = limits
        host.queues.outbox = outboxLimit
        host.queues.inbox = inboxLimit
        host.timeouts.reply = replyTimeout
        host.timeouts.handshake = handshakeTimeout
        host.backoff = backoff
        host.keepAlive = keepAlive
        host.allowedUIDs = allowedUIDs
        host.launch = switch launch {
        case nil: .auto
        case .foreground?: .foreground
        case .background?: .background
        }
        host.listenFDName = listenFDName
        host.engine.complicationDailyBudget = complicationDailyBudget
        host.engine.quirks = quirks
        host.watches = watches.compactMap { try? PairName(validating: $0) }
        return host
    }

    /// This (phone) app's configuration while bound to `watch`: its paths in the watch's own directories
    /// (`HostConfiguration.forWatch(_:)`).
    func forWatch(_ watch: PairName) -> WCSessionConfiguration {
        WCSessionConfiguration(hostConfiguration.forWatch(watch))
    }
}

extension WCSessionConfiguration {
    /// Reads the configuration the way `phoned`/`watchd` read theirs (docs/Configuration.md): `WATCHPAIR_*`
    /// environment variables over the JSON file (`$WATCHPAIR_CONFIG`, else `/etc/watchpair/<d>.json` when
    /// it exists) over the defaults, with every daemon key.
    ///
    /// The role is `WATCHPAIR_ROLE` (`phone` or `watch`), else the file's `role`; unset, the app is the
    /// phone app. Besides the keys' own variables (`WATCHPAIR_PATHS_LINK`, …), apps may use the short
    /// `WATCHPAIR_RUN_DIR` (the directory of the four sockets), `WATCHPAIR_STATE_DIR`, `WATCHPAIR_LINK`,
    /// `WATCHPAIR_PEER_LINK`, `WATCHPAIR_CONTROL` and `WATCHPAIR_PEER_CONTROL`. `launch` `auto` is nil here.
    /// - Throws: `WCSessionConfigurationError` naming the first invalid key (or the file).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) async throws(WCSessionConfigurationError) {
        try await self.init(environment: environment, defaultFileDirectory: "/etc/watchpair")
    }

    /// As `init(environment:)`, looking for the default file in `defaultFileDirectory` (nil: none).
    init(environment: [String: String], defaultFileDirectory: String?) async throws(WCSessionConfigurationError) {
        do {
            let loaded = try await HostConfiguration.loadApp(
                environment: environment, defaultFileDirectory: defaultFileDirectory ?? "/nonexistent/watchpair")
            self.init(loaded.configuration)
        } catch {
            throw WCSessionConfigurationError(key: error.key, message: error.reason)
        }
    }

    /// The app's share of the host's configuration.
    init(_ host: HostConfiguration) {
        role = host.role
        pairId = host.pairId
        stateDirectory = host.paths.state
        peerStateDirectory = host.paths.peerState
        linkSocketPath = host.paths.link
        peerLinkSocketPath = host.paths.peerLink
        controlSocketPath = host.paths.control
        peerControlSocketPath = host.paths.peerControl
        launch = switch host.launch {
        case .auto: nil
        case .foreground: .foreground
        case .background: .background
        }
        durability = host.durability
        replyTimeout = host.timeouts.reply
        limits = host.limits
        handshakeTimeout = host.timeouts.handshake
        keepAlive = host.keepAlive
        backoff = host.backoff
        outboxLimit = host.queues.outbox
        inboxLimit = host.queues.inbox
        allowedUIDs = host.allowedUIDs
        listenFDName = host.listenFDName
        complicationDailyBudget = host.engine.complicationDailyBudget
        quirks = host.engine.quirks
        watches = host.watches.map(\.rawValue)
    }
}

/// Why a configuration could not be loaded.
public struct WCSessionConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key at fault (dotted, e.g. `timeouts.reply`), or the config file's path.
    public var key: String
    /// What is wrong with it.
    public var message: String

    /// `key: message`.
    public var description: String { "\(key): \(message)" }
}
