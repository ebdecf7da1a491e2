import Foundation
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
///     pair.phone.delegate = phoneManager
///     pair.watch.delegate = watchManager
///     pair.phone.activate(); pair.watch.activate()
///     await pair.waitUntilReachable()
///     …
///     await pair.shutdown()
/// }
/// ```
///
/// In memory, both engines run on ``clock`` (a `ManualClock`: timeouts and retry delays pass only when
/// the test advances it) and both links go through the fault plan of ``faults`` (drop, delay or corrupt
/// the next reply, message, userInfo…; docs/FaultInjection.md). Over sockets, the real clock runs and both
/// are nil. Each session is built with `WCSession(configuration:link:clock:)`, as an app's own test may do.
public final class WCSessionPair: Sendable {
    /// How the sessions are linked.
    public let mode: WCSessionTestMode
    /// The iPhone app's session.
    public let phone: WCSession
    /// The Apple Watch app's session.
    public let watch: WCSession
    /// In memory: the network linking the two (drop connections, uninstall an app); nil over sockets.
    public let network: InMemoryNetwork?
    /// In memory: the clock of both engines and of reply timeouts; nil over sockets (the real clock).
    public let clock: ManualClock?
    /// In memory: the watch's link, through which faults are injected; nil over sockets. It shares its
    /// plan with the phone's link, so a fault may aim at either side's writes:
    /// `faults.inject(.drop, on: .reply, from: .watch)`, `faults.loseNextReply(from: .watch)`.
    public let faults: FaultInjectingTransport?
    /// The directory of both stores (and of the sockets over sockets); removed by ``shutdown()``.
    public let directory: String

    /// Two sessions, not yet activated: set their delegates, then `activate()` each.
    ///
    /// - Parameters:
    ///   - mode: In memory or over Unix sockets.
    ///   - replyTimeout: Both sessions' message reply timeout. Default: the configuration's (10 s).
    /// - Throws: `POSIXError` when the temporary directory cannot be made.
    public init(_ mode: WCSessionTestMode, replyTimeout: Duration = WCSessionConfiguration(role: .phone).replyTimeout) throws {
        var template = Array("/tmp/wcpair-XXXXXX".utf8CString)  // short: sun_path holds 108 bytes
        guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
        let directory = String(cString: made)
        func configuration(_ role: Role) -> WCSessionConfiguration {
            var configuration = WCSessionConfiguration(role: role, runDirectory: directory, stateRoot: directory)
            configuration.durability = .process
            configuration.replyTimeout = replyTimeout
            configuration.launch = .foreground
            return configuration
        }
        self.mode = mode
        self.directory = directory
        switch mode {
        case .inMemory:
            let network = InMemoryNetwork()
            let clock = ManualClock()
            let links = FaultInjectingTransport.linked(
                phone: network.transport(for: .phone), watch: network.transport(for: .watch), clock: clock)
            self.network = network
            self.clock = clock
            self.faults = links.watch
            phone = WCSession(configuration: configuration(.phone), link: links.phone, clock: clock)
            watch = WCSession(configuration: configuration(.watch), link: links.watch, clock: clock)
        case .unixSockets:
            network = nil
            clock = nil
            faults = nil
            phone = WCSession(configuration: configuration(.phone))
            watch = WCSession(configuration: configuration(.watch))
        }
    }

    /// Returns once both sessions see each other as reachable (or not, with `false`).
    public func waitUntilReachable(_ reachable: Bool = true) async {
        await phone.waitForReachability(reachable)
        await watch.waitForReachability(reachable)
    }

    /// Stops both sessions as if both apps exited, then removes ``directory``.
    public func shutdown() async {
        await phone.shutdown()
        await watch.shutdown()
        try? FileManager.default.removeItem(atPath: directory)
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
