import Foundation
import Logging
import Synchronization
import WatchConnectivity
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// Both apps' `WCSession`s in one test process: the iPhone app's and the Apple Watch app's, each with its
/// own durable store, linked in memory or over real Unix sockets (``WCSessionTestMode``).
///
/// ```swift
/// @Test(arguments: WCSessionTestMode.allCases)
/// func syncsTheList(_ mode: WCSessionTestMode) async throws {
///     let pair = try WCSessionPair(mode)
///     let (phone, watch) = try await pair.activate()
///     try pair.phone.updateApplicationContext(["list": "milk"])
///     #expect(try await watch.first(\.applicationContext)["list"] as? String == "milk")
///     await pair.shutdown()
/// }
/// ```
///
/// ``activate(phone:watch:within:)`` installs a ``SessionRecorder`` on each side (passing every callback on
/// to the app's own delegate, if given) and returns them; each reports the callbacks as events to await.
/// ``WCSession/sendMessageAwaitingReply(_:within:)`` awaits a reply as a `Sendable` ``WCPayload``.
///
/// In memory, both engines run on ``clock`` (a `ManualClock`) and both links go through the fault plan of
/// ``faults`` (drop, delay or corrupt the next reply, message, userInfo…; docs/FaultInjection.md). The
/// clock moves only when the test steps it (``ClockMode/manual``, the default), or by itself while the
/// test awaits through the kit (``ClockMode/automatic``). Over sockets, the real clock runs and these
/// three are nil. Sessions log through the pair's `Logger` (quiet by default: warnings and above;
/// ``defaultLogger()``).
public final class WCSessionPair: Sendable {
    /// How the sessions are linked.
    public let mode: WCSessionTestMode
    /// How the in-memory clock moves (always ``ClockMode/manual`` over sockets, where the real clock runs).
    public let clockMode: ClockMode
    /// The iPhone app's session.
    public let phone: WCSession
    /// The Apple Watch app's session (with several watches, the first one's).
    public let watch: WCSession
    /// With several watches (``init(_:watches:clock:replyTimeout:logger:)``), their names in order; empty
    /// for a phone with one watch.
    public let watchNames: [String]
    /// In memory: the network linking the two (drop connections, uninstall an app); nil over sockets.
    /// With several watches, the first watch's (``network(of:)`` gives each).
    public let network: InMemoryNetwork?
    /// In memory: the clock of both engines and of reply timeouts; nil over sockets (the real clock).
    public let clock: ManualClock?
    /// In memory: the watch's link, through which faults are injected; nil over sockets. It shares its
    /// plan with the phone's link, so a fault may aim at either side's writes:
    /// `faults.inject(.drop, on: .reply, from: .watch)`, `faults.loseNextReply(from: .watch)`. With several
    /// watches, the first watch's.
    public let faults: FaultInjectingTransport?
    /// The directory of both stores (and of the sockets over sockets); removed by ``shutdown()``.
    public let directory: String
    /// How the kit's waits are bounded and the clock driven.
    let waits: PairWaits
    /// The recorders ``activate(_:forwardingTo:within:)`` installed, by ``recorderKey(_:)``, kept alive
    /// (delegates are weak).
    let recorders = Mutex<[String: SessionRecorder]>([:])
    /// Each watch's session and, in memory, its network, by name (one entry, named "", for one watch).
    let watchLinks: [String: WatchLink]

    /// One watch of the pair.
    struct WatchLink: Sendable {
        let session: WCSession
        let network: InMemoryNetwork?
    }

    /// Two sessions, not yet activated: ``activate(phone:watch:within:)`` them (or set their delegates
    /// and `activate()` each, as an app does).
    ///
    /// - Parameters:
    ///   - mode: In memory or over Unix sockets.
    ///   - clock: In memory, whether the test steps the clock (``ClockMode/manual``, the default) or it
    ///     advances by itself while the test awaits through the kit (``ClockMode/automatic``; the engines'
    ///     keep-alives are off then). Ignored over sockets.
    ///   - replyTimeout: Both sessions' message reply timeout. Default: the configuration's (10 s).
    ///   - logger: Where both sessions log (with `role` metadata). Default: ``defaultLogger()``, warnings
    ///     and above unless `WATCHPAIR_TEST_LOG` asks for more.
    /// - Throws: `POSIXError` when the temporary directory cannot be made.
    public convenience init(
        _ mode: WCSessionTestMode, clock: ClockMode = .manual,
        replyTimeout: Duration = WCSessionConfiguration(role: .phone).replyTimeout, logger: Logger = WCSessionPair.defaultLogger()
    ) throws {
        try self.init(mode, watches: [], clock: clock, replyTimeout: replyTimeout, logger: logger)
    }

    /// A phone paired with several watches (docs/Watches.md), none activated: the phone's configuration
    /// lists `watches` (the first is active), and each watch is a session of its own with its own store,
    /// linked to the phone in memory (a network per watch) or over its own sockets. ``switch(to:)``,
    /// ``pair(_:)`` and ``unpair(_:)`` do what the user does in the Watch app; ``watch(_:)`` is a
    /// watch's session, ``activate(watch:forwardingTo:within:)`` activates it.
    ///
    /// With more than one watch in memory the clock is ``ClockMode/manual`` whatever `clock` says (the
    /// self-driving clock watches one network). Names are pair names (letters, digits, `-`, `_`).
    /// - Throws: `POSIXError` when the temporary directory cannot be made.
    public init(
        _ mode: WCSessionTestMode, watches names: [String], clock: ClockMode = .manual,
        replyTimeout: Duration = WCSessionConfiguration(role: .phone).replyTimeout, logger: Logger = WCSessionPair.defaultLogger()
    ) throws {
        var template = Array("/tmp/wcpair-XXXXXX".utf8CString)  // short: sun_path holds 108 bytes
        guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
        let directory = String(cString: made)
        // A watch named W lives in `directory/W`, where the phone's paths for W are (HostConfiguration.forWatch).
        func configuration(_ role: Role, watch: String?) -> WCSessionConfiguration {
            let base = watch.map { "\(directory)/\($0)" } ?? directory
            var configuration = WCSessionConfiguration(role: role, runDirectory: base, stateRoot: base)
            if let watch { configuration.pairId = watch }
            configuration.durability = .process
            configuration.replyTimeout = replyTimeout
            configuration.launch = .foreground
            return configuration
        }
        var phoneConfiguration = configuration(.phone, watch: nil)
        phoneConfiguration.watches = names
        let watches: [String?] = names.isEmpty ? [nil] : names
        self.mode = mode
        self.directory = directory
        watchNames = names
        var links: [String: WatchLink] = [:]
        switch mode {
        case .inMemory:
            let manualClock = ManualClock()
            let holding = HoldingClock(manualClock)
            let networks = watches.map { _ in InMemoryNetwork() }
            let transports = networks.map { network in
                FaultInjectingTransport.linked(
                    phone: network.transport(for: .phone), watch: network.transport(for: .watch), clock: holding)
            }
            self.network = networks[0]
            self.clock = manualClock
            self.faults = transports[0].watch
            clockMode = watches.count == 1 ? clock : .manual
            let waits = clockMode == .automatic ? PairWaits(driving: manualClock, network: networks[0], holding: holding) : PairWaits()
            self.waits = waits
            // Self-driving, idle time passes in jumps: keep-alives would only add pings to every jump,
            // and in memory a dropped link is seen at once without them.
            let keepAlive = clockMode == .automatic ? KeepAlivePolicy(interval: nil) : nil
            // One timeline for every session: they agree on the wall time as the devices of one owner do.
            let wallClock = WallClock(manualClock, origin: ManualClock.wallClockOrigin)
            func overrides(_ link: any Transport) -> SessionOverrides {
                SessionOverrides(
                    transport: link, clock: manualClock, keepAlive: keepAlive, logger: logger, waits: waits, wallClock: wallClock)
            }
            var phoneOverrides = overrides(transports[0].phone)
            for (index, watch) in watches.enumerated() {
                let session = WCSession(configuration: configuration(.watch, watch: watch), overrides: overrides(transports[index].watch))
                links[watch ?? ""] = WatchLink(session: session, network: networks[index])
                if let watch { phoneOverrides.watchTransports[watch] = transports[index].phone }
            }
            phone = WCSession(configuration: phoneConfiguration, overrides: phoneOverrides)
        case .unixSockets:
            network = nil
            self.clock = nil
            faults = nil
            clockMode = .manual
            let waits = PairWaits()
            self.waits = waits
            phone = WCSession(configuration: phoneConfiguration, overrides: SessionOverrides(logger: logger, waits: waits))
            for watch in watches {
                let session = WCSession(
                    configuration: configuration(.watch, watch: watch), overrides: SessionOverrides(logger: logger, waits: waits))
                links[watch ?? ""] = WatchLink(session: session, network: nil)
            }
        }
        watchLinks = links
        watch = links[names.first ?? ""]!.session
        waits.sessions.add(phone)
        for link in links.values { waits.sessions.add(link.session) }
    }

    /// Returns once both sessions see each other as reachable (or not, with `false`).
    public func waitUntilReachable(_ reachable: Bool = true) async {
        await phone.waitForReachability(reachable)
        await watch.waitForReachability(reachable)
    }

    /// Stops every session as if every app exited, then removes ``directory``.
    public func shutdown() async {
        await phone.shutdown()
        for link in watchLinks.values { await link.session.shutdown() }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// `role`'s session.
    public func session(_ role: Role) -> WCSession {
        role == .phone ? phone : watch
    }
}

extension WCSessionPair {
    /// Uninstalls (`false`) or installs `role`'s app, as `wcctl --side watch uninstall` / `install` does:
    /// its counterpart then sees it not installed (content fails at once with 7006 / 7018,
    /// `sessionWatchStateDidChange`) or installed again. The session must be activated.
    public func setInstalled(_ role: Role, _ installed: Bool) async throws {
        try await (role == .phone ? phone : watch).setAppInstalled(installed)
    }

    /// Enables or disables the watch app's complication, as `wcctl --side watch complication enable`
    /// does: the phone's `isComplicationEnabled` follows, with `sessionWatchStateDidChange`.
    public func setComplicationEnabled(_ enabled: Bool) async throws {
        try await watch.setComplicationEnabled(enabled)
    }
}
