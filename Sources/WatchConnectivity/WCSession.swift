import Foundation
import Logging
import Synchronization
import WatchPairCore
import WatchPairHost
import WatchPairQuirks
import WatchPairWire

/// The link between an iPhone app and its Apple Watch app, with Apple's `WCSession` API, on Linux.
///
/// Use it as on Apple's platforms: set `WCSession.default.delegate`, call `activate()`, wait for
/// `session(_:activationDidCompleteWith:error:)`, then send with `sendMessage`, `transferUserInfo` and
/// `updateApplicationContext` and receive through the delegate. Which side the app is (phone or watch)
/// and where its state and sockets live come from the environment (`WCSessionConfiguration`); the role
/// defaults to `phone` when `WATCHPAIR_ROLE` is unset. `WCSession(configuration:link:clock:)` builds a
/// session from an explicit configuration instead (tests, or an in-memory link).
///
/// Each activation builds and runs the same host as `phoned`/`watchd` (WatchPairHost): it opens the
/// durable store in the state directory, listens on the app's link socket (or adopts the one systemd
/// passes) and on its control socket (which answers `status`), and links to the counterpart —
/// `phoned`/`watchd` or another app built on this module.
///
/// Threading: every method and property may be used from any thread. Delegate callbacks, and the
/// reply and error handlers of `sendMessage`, run serially on one private serial queue, never the main
/// thread. `transferUserInfo`, `updateApplicationContext`, `outstandingUserInfoTransfers` and
/// `WCSessionUserInfoTransfer.cancel()` block their caller until the engine has answered (a transfer is
/// durable on disk when `transferUserInfo` returns); they are safe to call from anywhere, including
/// Swift concurrency tasks and delegate callbacks, because the engine runs on its own thread.
/// Properties such as `isReachable` and `applicationContext` read a snapshot and never block.
public final class WCSession: NSObject, @unchecked Sendable {
    /// The session of this app process, configured from the environment.
    public static let `default` = WCSession(configurationSource: .environment, overrides: SessionOverrides())

    /// Where the configuration comes from.
    enum ConfigurationSource: Sendable {
        /// `WCSessionConfiguration(environment:)`, read once.
        case environment
        /// Given (tests).
        case fixed(WCSessionConfiguration)
    }

    /// Where a session is in its life.
    enum Phase {
        case idle
        case activating(Task<Void, Never>)
        case active(SessionRuntime, Task<Void, Never>)
        case stopping(Task<Void, Never>)
    }

    struct State {
        var phase: Phase = .idle
        var activationState: WCSessionActivationState = .notActivated
        var configuration: Result<WCSessionConfiguration, WCSessionConfigurationError>?
        /// Reachability and installation of the counterpart, as last refreshed.
        var snapshot = SessionSnapshot()
        /// Something listens for the counterpart (a fresh probe), or it is reachable: its device is on.
        var counterpartListening = false
        var hasContentPending = false
        var applicationContext: PlistDictionary = [:]
        var receivedApplicationContext: PlistDictionary = [:]
        /// Quirks the test kit set (``setQuirk(_:_:)``): on at every activation, over the configuration's.
        var quirks: [Quirk: QuirkSetting] = [:]
        /// A phone with several watches (the configuration lists them): which is active, which the
        /// session is bound to, and the switch in progress. Nil with one watch.
        var watches: WatchSwitchMachine?
        /// The watch the last activation was bound to (nil: none), once one was (``WatchSwitchMachine``).
        var lastBoundWatch: String?
        var hasBoundWatch = false
    }

    let state = Mutex(State())
    /// The delegate and the queue of its callbacks.
    let callbacks = SessionCallbacks()
    let configurationSource: ConfigurationSource
    let overrides: SessionOverrides
    let logger: Logger
    /// The transfer objects the app may hold, across activations.
    let transfers = SessionTransfers()
    /// Fires after each refresh of the state snapshot (`isReachable`, `isWatchAppInstalled`); for tests.
    package let snapshotSignal = AsyncSignal()
    /// Fires after each update of a file transfer's `progress`; for tests.
    package let fileProgressSignal = AsyncSignal()
    /// Fires after each change of ``State/watches`` (a switch, a pairing, an unpair).
    let watchSignal = AsyncSignal()

    init(configurationSource: ConfigurationSource, overrides: SessionOverrides) {
        self.configurationSource = configurationSource
        self.overrides = overrides
        self.logger = overrides.logger ?? Logger(label: "WatchConnectivity")
        super.init()
    }

    /// A session with an explicit configuration and test overrides (the test kit and this package's tests).
    package convenience init(configuration: WCSessionConfiguration, overrides: SessionOverrides) {
        self.init(configurationSource: .fixed(configuration), overrides: overrides)
    }

    /// A session of its own, configured by `configuration` instead of the environment: for tests that
    /// hold both apps in one process, or a process hosting more than one app. `WCSession.default` stays
    /// the app's session.
    ///
    /// - Parameters:
    ///   - configuration: The role, paths and settings (`WCSessionConfiguration(role:runDirectory:stateRoot:)`).
    ///   - link: The link to the counterpart instead of Unix sockets, e.g. `InMemoryNetwork.transport(for:)`
    ///     of WatchPairTesting; then no socket is bound. Nil (the default): the configured sockets.
    ///   - clock: The clock of the engine's timers and of reply timeouts, e.g. a `ManualClock`.
    public convenience init(
        configuration: WCSessionConfiguration, link: (any Transport)? = nil, clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.init(configurationSource: .fixed(configuration), overrides: SessionOverrides(transport: link, clock: clock))
    }

    /// Whether this process can use Watch Connectivity: always true on Linux, as on an iPhone.
    ///
    /// The role comes from `WATCHPAIR_ROLE` and defaults to `phone` when it is unset, so an app written
    /// for iOS runs unchanged as the phone app. An invalid configuration does not make this false: it
    /// fails `activate()` with 7002 (`sessionNotSupported`) naming the key at fault.
    public class func isSupported() -> Bool {
        true
    }

    /// The object that receives the session's callbacks, held weakly as on Apple's platforms.
    ///
    /// Set it before `activate()`: without a delegate the session does not activate, and sends fail
    /// with 7003 (`sessionMissingDelegate`).
    public var delegate: (any WCSessionDelegate)? {
        get { callbacks.delegate }
        set { callbacks.delegate = newValue }
    }

    /// `.notActivated` until activation completes, then `.activated`; `.inactive` while stopping.
    public var activationState: WCSessionActivationState { state.withLock { $0.activationState } }

    /// Whether the counterpart can receive live messages now (docs/Lifecycle.md): on the phone, the watch app
    /// runs in the foreground and the link is up; on the watch, the phone app is installed and its link
    /// can be made (a message launches it). False until activated.
    public var isReachable: Bool { state.withLock { $0.activationState == .activated && $0.snapshot.reachable } }

    /// Whether a counterpart is configured: true once activated with a watch. A phone with several watches
    /// (docs/Watches.md) is unpaired while no watch is active (the active one was unpaired).
    public var isPaired: Bool {
        state.withLock { state in
            state.activationState == .activated && (state.watches.map { $0.bound != nil } ?? true)
        }
    }

    /// Phone side: whether the watch app is installed; on the watch side, whether the phone app is. True
    /// while the counterpart's device is off (nothing listens: content queues); false when it was
    /// uninstalled (`wcctl uninstall`) or its socket unit is masked or has no unit file (then content fails at
    /// once with 7006 / 7018). Changes call `sessionWatchStateDidChange` (watch:
    /// `sessionCompanionAppInstalledDidChange`). False until activated.
    public var isWatchAppInstalled: Bool { state.withLock { $0.activationState == .activated && $0.snapshot.counterpartInstalled } }

    /// Whether the counterpart's device is on: something listens on its link socket, or it is reachable
    /// (false while it is off, when `isWatchAppInstalled` stays true). Not Apple's API: for
    /// `WCSessionAdapter`, so the reliability layer can tell "device off" from "installed, not running".
    package var isCounterpartListening: Bool { state.withLock { $0.activationState == .activated && $0.counterpartListening } }

    /// Watch side: whether the phone app is installed (see `isWatchAppInstalled`). Same value as `isWatchAppInstalled`.
    public var isCompanionAppInstalled: Bool { isWatchAppInstalled }

    /// Phone side: a directory for data about the paired watch (`<stateDirectory>/WatchDirectory/<pairId>`),
    /// present while the session is activated and the watch app is installed; removed, with its
    /// contents, when the watch app is uninstalled (as Apple does). With several watches, one per watch
    /// (in the phone's state directory for that watch), describing the active one, and removed when that
    /// watch is unpaired. Nil on the watch side, before activation and while the watch app is not installed.
    public var watchDirectoryURL: URL? {
        state.withLock { state -> URL? in
            guard state.activationState == .activated, state.snapshot.counterpartInstalled,
                case .active(let runtime, _) = state.phase, runtime.configuration.role == .phone
            else { return nil }
            return WatchDirectory(configuration: runtime.configuration).url
        }
    }

    /// Phone side: whether the watch app's complication is enabled (`wcctl --side watch complication
    /// enable`), known while the watch app is not running; changes call `sessionWatchStateDidChange`.
    /// False on the watch side, before activation and while the watch app is not installed.
    public var isComplicationEnabled: Bool { state.withLock { $0.activationState == .activated && $0.snapshot.complicationEnabled } }

    /// Always false: there is no device lock on Linux.
    public var iOSDeviceNeedsUnlockAfterRebootForReachability: Bool { false }

    /// Whether received content (userInfo, a context, files, finished transfers) is waiting to be handed to the delegate.
    public var hasContentPending: Bool { state.withLock { $0.hasContentPending } }

    /// The last application context this app sent; survives restarts. Empty before activation.
    public var applicationContext: [String: Any] {
        PropertyListBridge.object(from: state.withLock { $0.applicationContext })
    }

    /// The last application context received from the counterpart; survives restarts. Empty before activation.
    public var receivedApplicationContext: [String: Any] {
        PropertyListBridge.object(from: state.withLock { $0.receivedApplicationContext })
    }

    /// The configuration, loaded once from its source (a failure is kept too).
    func loadConfiguration() async throws(WCSessionConfigurationError) -> WCSessionConfiguration {
        if let loaded = state.withLock({ $0.configuration }) { return try loaded.get() }
        let loaded: Result<WCSessionConfiguration, WCSessionConfigurationError>
        switch configurationSource {
        case .fixed(let configuration): loaded = .success(configuration)
        case .environment:
            do {
                loaded = .success(try await WCSessionConfiguration())
            } catch {
                loaded = .failure(error)
            }
        }
        // The first load wins, so every caller sees the same configuration.
        let kept = state.withLock { state in
            if let earlier = state.configuration { return earlier }
            state.configuration = loaded
            return loaded
        }
        return try kept.get()
    }

    /// Runs `body` with the delegate on the delegate queue (nothing when there is no delegate).
    func notifyDelegate(_ body: @escaping @Sendable (WCSession, any WCSessionDelegate) -> Void) {
        callbacks.queue.async {
            guard let delegate = self.delegate else { return }
            body(self, delegate)
        }
    }

    /// Runs `body` on the delegate queue and returns its result once it has run.
    func onDelegateQueue<T: Sendable>(_ body: @escaping @Sendable (WCSession) -> T) async -> T {
        await withCheckedContinuation { continuation in
            callbacks.queue.async { continuation.resume(returning: body(self)) }
        }
    }

    /// How the test kit waits for this session (set by its pair); nil for an app's session.
    package var waits: (any SessionWaits)? { overrides.waits }

    /// Returns once the work queued before the call has run on the engine's thread, then on the delegate
    /// queue, then on the engine's thread again (what a delegate callback queued there). For the test
    /// kit's self-driving clock, which calls this between looks at the clock and the network.
    package func drainQueues() async {
        await EngineExecutor.shared.spawn {}.value
        await onDelegateQueue { _ in }
        await EngineExecutor.shared.spawn {}.value
    }

    /// Returns once `isReachable` is `reachable` (for tests; Apple's apps use `sessionReachabilityDidChange`).
    package func waitForReachability(_ reachable: Bool = true) async {
        while !Task.isCancelled {
            let seen = snapshotSignal.generation
            if isReachable == reachable { return }
            await snapshotSignal.wait(after: seen)
        }
    }

    /// `<WCSession role activationState>`.
    public override var description: String {
        let role = (try? state.withLock { $0.configuration }?.get().role.rawValue) ?? "unconfigured"
        return "<WCSession \(role) \(activationState)>"
    }
}

extension WCSession {
    /// Enables or disables this (watch) app's complication, as `wcctl --side watch complication enable` does:
    /// the phone's `isComplicationEnabled` follows. For tests (`WCSessionPair.setComplicationEnabled(_:)`).
    package func setComplicationEnabled(_ enabled: Bool) async throws(WCError) {
        try await withActiveChannels { channels throws(WCFailure) in try await channels.setComplicationEnabled(enabled) }
    }

    /// Uninstalls (`false`) or installs this app, as `wcctl uninstall` / `install` does for a daemon:
    /// the counterpart then sees it as not installed (7006 / 7018) or installed again. For tests
    /// (`WCSessionPair.setInstalled(_:_:)`); Apple's apps cannot uninstall themselves.
    package func setAppInstalled(_ installed: Bool) async throws(WCError) {
        try await withActiveChannels { channels throws(WCFailure) in try await channels.setInstalled(installed) }
    }

    /// Runs `body` with the active host's channels; 7004 when not activated, a failure as its `WCError`.
    private func withActiveChannels(_ body: (AppChannels) async throws(WCFailure) -> Void) async throws(WCError) {
        guard let runtime = activeRuntime else { throw WCError(.sessionNotActivated) }
        do {
            try await body(runtime.channels)
        } catch {
            throw WCError(error)
        }
    }
}
