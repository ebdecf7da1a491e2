import Foundation
import Logging
import Synchronization
import WatchPairCore
import WatchPairHost
import WatchPairWire

/// `phoned` with several watches (docs/Watches.md): the switch machine, the daemon bound to one watch, and
/// the drain that ends that daemon when the phone switches away.
///
/// `phoned` is an app that calls `activate()` again in `sessionDidDeactivate`, as Apple's sample does:
/// `DaemonMain` runs the daemon of the active watch, and after a switch closed it, the daemon of the new
/// one (``activate()``, ``attach(_:)``, ``detach()``). The control socket is each daemon's, at the phone's
/// `paths.control`, so `wcctl` keeps its address across switches.
public final class PhoneWatches: Sendable {
    /// The phone's configuration (not bound to a watch).
    let configuration: DaemonConfiguration
    let logger: Logger

    private struct State {
        var machine: WatchSwitchMachine
        /// The running daemon, bound to `bound`.
        var daemon: Daemon?
        var bound: PairName?
        /// A switch closed the running daemon: run the next one.
        var closedBySwitch = false
        /// A switch away from the bound watch is in progress: ``drain(_:)`` ends the daemon once it drained.
        var draining = false
    }

    private let state: Mutex<State>
    /// Fires when a switch starts (``startDrain()``), for ``drain(_:)``.
    private let switchStarted = AsyncSignal()

    /// The operations a switch refuses with 7016 while the session is inactive: new content.
    static let contentOperations: Set<String> = ["send", "sendData", "transfer", "transferComplication", "transferFile", "contextSet"]

    /// The watches of `configuration` (it lists some), as its record (`watches.json`) left them.
    /// - Throws: ``ConfigurationError`` (`watches`) when none is paired and active.
    public init(configuration: DaemonConfiguration, logger: Logger) throws(ConfigurationError) {
        let machine = WatchSetRecord.load(path: configuration.watchSetPath).machine(watches: configuration.watches)
        guard machine.active != nil else {
            throw ConfigurationError(
                key: "watches", reason: "no listed watch is paired (\(configuration.watchSetPath) says all are unpaired): pair one, or remove the record")
        }
        self.configuration = configuration
        self.logger = logger
        state = Mutex(State(machine: machine))
    }

    /// The next daemon's watch (the machine's `activate()`): the active one. phoned never lets the active
    /// watch go (``unpair(_:)`` refuses it), so there is one.
    public func activate() -> PairName? {
        state.withLock { state in
            var bound: String?
            for case .bind(let watch) in (try? state.machine.event(.activate)) ?? [] { bound = watch }
            state.bound = (bound ?? state.machine.active).flatMap { try? PairName(validating: $0) }
            return state.bound
        }
    }

    /// The daemon just built for the bound watch.
    public func attach(_ daemon: Daemon) {
        state.withLock { $0.daemon = daemon }
    }

    /// The running daemon stopped: true when a switch closed it (run the next watch's), false for a
    /// shutdown (SIGTERM) or a failure.
    public func detach() -> Bool {
        state.withLock { state in
            state.draining = false
            state.daemon = nil
            defer { state.closedBySwitch = false }
            if !state.closedBySwitch { _ = try? state.machine.event(.activationEnded) }
            return state.closedBySwitch
        }
    }

    /// 7016 for new content while a switch is in progress (docs/Watches.md), else nil: the machine's answer
    /// to `.newContent` for the operations that start new content.
    func refusal(_ operation: String) -> WCFailure? {
        guard Self.contentOperations.contains(operation) else { return nil }
        return state.withLock { state -> WCFailure? in
            var machine = state.machine
            guard case .refuse(let failure)? = (try? machine.event(.newContent))?.first else { return nil }
            return failure
        }
    }

    /// The machine, its running daemon and its bound watch, read together.
    func snapshot() -> (WatchSwitchMachine, Daemon?, PairName?) {
        state.withLock { ($0.machine, $0.daemon, $0.bound) }
    }

    /// Applies `event` to the machine, saves its record and returns its actions (nothing changes on an error).
    func apply(_ event: WatchSwitchMachine.Event) throws(WCFailure) -> [WatchSwitchMachine.Action] {
        let (actions, record) = try state.withLock { state throws(WCFailure) in
            let actions = try state.machine.event(event)
            return (actions, WatchSetRecord(state.machine))
        }
        do {
            try record.save(path: configuration.watchSetPath)
        } catch {
            logger.warning("the watches' record was not saved", metadata: ["error": "\(error)"])
        }
        return actions
    }

    /// Emits `event` through the running daemon (its journal and `wcctl events`).
    func emit(_ kind: DiagnosticEvent.Kind, _ message: String) {
        guard let daemon = state.withLock({ $0.daemon }) else { return }
        daemon.engine.diagnostics.emit(DiagnosticEvent(kind, role: .phone, message))
    }

    /// A switch made the session inactive: ``drain(_:)``, running beside the daemon, takes it from here.
    func startDrain() {
        state.withLock { $0.draining = true }
        switchStarted.fire()
    }

    /// Runs beside `daemon` (a child of the same task group, so it ends with it): once a switch makes the
    /// session inactive, ends the daemon when what was queued for its watch has drained, or its link is
    /// gone (nothing listens for it and the link is down, or its app is not installed).
    func drain(_ daemon: Daemon) async {
        while !Task.isCancelled {
            let seen = switchStarted.generation
            if state.withLock({ $0.draining && $0.daemon === daemon }) { break }
            await switchStarted.wait(after: seen)
        }
        guard let bound = state.withLock({ $0.bound }) else { return }
        let engine = daemon.engine
        while !Task.isCancelled {
            let signals = [engine.contentSignal, engine.stateSignal].map { ($0, $0.generation) }
            let status = await engine.status()
            if status.drainedOrUndeliverable(listening: status.peerListening, installed: status.peerInstalled) {
                let close = state.withLock { state -> Bool in
                    let actions = (try? state.machine.event(.drained(bound.rawValue))) ?? []
                    guard actions.contains(.close(bound.rawValue)) else { return false }
                    state.closedBySwitch = true
                    return true
                }
                if close {
                    logger.info("watch switch: the old watch is closed", metadata: ["watch": "\(bound)", "left": "\(status.outstandingTransfers)"])
                    await daemon.shutdown()
                }
                return
            }
            // Presence changes have no signal of their own: look again after a while too.
            await Waiting.any(signals, orAfter: .milliseconds(500), on: ContinuousClock())
        }
    }
}
