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
        /// Ends the running daemon once its watch's queue has drained (a switch in progress).
        var drain: Task<Void, Never>?
    }

    private let state: Mutex<State>

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
            state.drain?.cancel()
            state.drain = nil
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

    /// A switch made the session inactive: ends the running daemon once what was queued for its watch has
    /// drained, or its link is gone (nothing listens for it and the link is down, or its app is not installed).
    func startDrain() {
        state.withLock { state in
            guard let daemon = state.daemon, let bound = state.bound, state.drain == nil else { return }
            // Not a child of the request that started the switch: it outlives the request, and ends with the
            // daemon (`detach()` cancels it).
            state.drain = Task { [weak self] in
                let engine = daemon.engine
                while !Task.isCancelled {
                    let signals = [engine.contentSignal, engine.stateSignal].map { ($0, $0.generation) }
                    let status = await engine.status()
                    if status.isDrained || !(status.reachable || status.peerListening) || !status.peerInstalled {
                        guard let self else { return }
                        let close = self.state.withLock { state -> Bool in
                            let actions = (try? state.machine.event(.drained(bound.rawValue))) ?? []
                            guard actions.contains(.close(bound.rawValue)) else { return false }
                            state.closedBySwitch = true
                            return true
                        }
                        if close {
                            self.logger.info("watch switch: the old watch is closed", metadata: ["watch": "\(bound)", "left": "\(status.outstandingTransfers)"])
                            await daemon.shutdown()
                        }
                        return
                    }
                    // Presence changes have no signal of their own: look again after a while too.
                    await Waiting.any(signals, orAfter: .milliseconds(500), on: ContinuousClock())
                }
            }
        }
    }
}
