import Foundation
import WatchPairCore
import WatchPairHost
import WatchPairWire

/// A phone with several watches (docs/Watches.md): the configuration lists them (`watches`), one is active,
/// and switching runs Apple's sequence (`sessionDidBecomeInactive`, then `sessionDidDeactivate`; the app
/// calls `activate()` and is bound to the new watch). `WatchSwitchMachine` decides; this executes: the
/// running activation (`runSession`) is bound to one watch and ends when the machine closes that watch.
extension WCSession {
    /// The phone's watches: name, paired, installed (as last seen), whether active, in the configuration's
    /// order; empty with one watch (no `watches` configured). For tests and the control socket.
    package var watches: [PhoneWatch] { state.withLock { $0.watches?.watches ?? [] } }

    /// The active watch (nil: none, or one watch without `watches` configured).
    package var activeWatch: String? { state.withLock { $0.watches?.active } }

    /// Makes `name` the active watch, as the user does in the Watch app. While the session is activated
    /// it goes `.inactive` (`sessionDidBecomeInactive`) and, once the old watch's queue has drained or its
    /// link is gone, `.notActivated` (`sessionDidDeactivate`); the app then calls `activate()`.
    /// - Throws: 7008 for a watch the phone does not list, 7005 for one that is not paired, 7016 while
    ///   a switch is in progress; 7002 when the configuration lists no watches.
    package func switchWatch(to name: String) async throws(WCError) {
        try await runWatchEvent(.switchTo(name))
    }

    /// Pairs the listed watch `name` again (after ``unpairWatch(_:)``); with no watch active it becomes the
    /// active one (an activated session is bound to it: `sessionWatchStateDidChange`).
    /// - Throws: 7008 for a watch the phone does not list; 7002 when the configuration lists no watches.
    package func pairWatch(_ name: String) async throws(WCError) {
        try await runWatchEvent(.pair(name))
    }

    /// Unpairs `name`: what the phone queued for it is dropped, with its watch directory (the one place
    /// content is dropped, as on Apple's devices). Unpairing the watch the session is bound to
    /// deactivates the session first (`sessionDidBecomeInactive`, `sessionDidDeactivate`). Returns what
    /// was dropped, also logged.
    /// - Throws: 7008 for a watch the phone does not list, 7005 for one that is not paired, 7001 when its
    ///   store cannot be read or removed; 7002 when the configuration lists no watches.
    @discardableResult
    package func unpairWatch(_ name: String) async throws(WCError) -> QueuedCounts {
        let (configuration, actions) = try await applyWatchEvent(.unpair(name))
        guard actions.contains(.dropQueue(name)), let watch = try? PairName(validating: name) else { return QueuedCounts() }
        do {
            let counts = try await WatchQueueDrop.drop(configuration.forWatch(watch).hostConfiguration, logger: logger)
            logger.notice(
                "watch unpaired: what was queued for it is dropped",
                metadata: ["watch": "\(name)", "dropped": "\(counts)", "items": "\(counts.total)"])
            return counts
        } catch {
            throw WCError(.genericError, message: "watch '\(name)' is unpaired, but its queue could not be dropped: \(error)")
        }
    }

    /// Applies `event` and waits for what it closes.
    private func runWatchEvent(_ event: WatchSwitchMachine.Event) async throws(WCError) {
        _ = try await applyWatchEvent(event)
    }

    /// Applies `event` to the switch machine and executes its actions: `.inactive` at once (new sends fail
    /// with 7016 from here on) and `sessionDidBecomeInactive`; a watch to close ends the running activation
    /// (its drain child sees the machine) and is awaited, which reports `sessionDidDeactivate`; a watch to
    /// bind wakes an activation waiting without one. Persists the machine's record.
    private func applyWatchEvent(
        _ event: WatchSwitchMachine.Event
    ) async throws(WCError) -> (WCSessionConfiguration, [WatchSwitchMachine.Action]) {
        let configuration = try await configurationWithWatches()
        let (actions, activation, record) = try state.withLock { state throws(WCError) -> ([WatchSwitchMachine.Action], Task<Void, Never>?, WatchSetRecord) in
            guard var machine = state.watches else { throw Self.noWatches }
            let actions: [WatchSwitchMachine.Action]
            do throws(WCFailure) {
                actions = try machine.event(event)
            } catch {
                throw WCError(error)
            }
            state.watches = machine
            if actions.contains(.reportInactive) { state.activationState = .inactive }
            let activation: Task<Void, Never>? = switch state.phase {
            case .activating(let task), .active(_, let task): task
            case .idle, .stopping: nil
            }
            return (actions, activation, WatchSetRecord(machine))
        }
        do {
            try record.save(path: configuration.hostConfiguration.watchSetPath)
        } catch {
            logger.warning("the watches' record was not saved", metadata: ["error": "\(error)"])
        }
        if actions.contains(.reportInactive) {
            notifyDelegate { session, delegate in delegate.sessionDidBecomeInactive(session) }
        }
        watchSignal.fire()
        if actions.contains(where: { if case .close = $0 { true } else { false } }) {
            await activation?.value
        }
        logger.info("watches: \(event)", metadata: ["actions": "\(actions)", "active": "\(record.active ?? "none")"])
        return (configuration, actions)
    }

    /// The configuration, with the switch machine loaded from the phone's record; 7002 without `watches`.
    func configurationWithWatches() async throws(WCError) -> WCSessionConfiguration {
        let configuration: WCSessionConfiguration
        do {
            configuration = try await loadConfiguration()
        } catch {
            throw WCError(.sessionNotSupported, message: "WatchConnectivity is not configured: \(error)")
        }
        guard !configuration.watches.isEmpty else { throw Self.noWatches }
        var names: [PairName] = []
        for text in configuration.watches {
            do {
                names.append(try PairName(validating: text))
            } catch {
                throw WCError(.sessionNotSupported, message: "watches: \(error)")
            }
        }
        let path = configuration.hostConfiguration.watchSetPath
        state.withLock { state in
            if state.watches == nil { state.watches = WatchSetRecord.load(path: path).machine(watches: names) }
        }
        return configuration
    }

    /// The watch an activation binds (the machine's `.activate`): nil when no watch is paired and active.
    func bindWatchForActivation() async throws(WCError) -> PairName? {
        _ = try await configurationWithWatches()
        let bound = state.withLock { state -> String? in
            let actions = (try? state.watches?.event(.activate)) ?? []
            for case .bind(let watch) in actions { return watch }
            return state.watches?.bound
        }
        return bound.flatMap { try? PairName(validating: $0) }
    }

    /// Activation with no watch paired and active: `.activated` (`isPaired` false, sends fail with 7005)
    /// until a pairing or a switch binds a watch, which is returned; nil when the session is shut down first.
    func activateWithoutWatch() async -> PairName? {
        let activated = state.withLock { state -> Bool in
            guard case .activating = state.phase else { return false }
            state.activationState = .activated
            state.snapshot = SessionSnapshot()
            return true
        }
        guard activated else { return nil }
        let otherWatch = noteBoundWatch(nil)
        snapshotSignal.fire()
        notifyDelegate { session, delegate in
            delegate.session(session, activationDidCompleteWith: .activated, error: nil)
            if otherWatch { delegate.sessionWatchStateDidChange(session) }
        }
        while !Task.isCancelled {
            let seen = watchSignal.generation
            let bound = state.withLock { state -> String? in
                if case .activated(let watch?)? = state.watches?.session { return watch }
                return nil
            }
            if let bound { return try? PairName(validating: bound) }
            await watchSignal.wait(after: seen)
        }
        return nil
    }

    /// Records that an activation is bound to `watch` (nil: none); true when the phone has several watches
    /// and an earlier activation was bound to another one, so the watch state the app sees changed.
    func noteBoundWatch(_ watch: String?) -> Bool {
        state.withLock { state in
            guard state.watches != nil else { return false }
            defer { (state.lastBoundWatch, state.hasBoundWatch) = (watch, true) }
            return state.hasBoundWatch && state.lastBoundWatch != watch
        }
    }

    /// The end of an activation a switch or an unpair closed: `.notActivated`, `sessionDidDeactivate`.
    func deactivatedBySwitch() {
        state.withLock { state in
            state.phase = .idle
            state.activationState = .notActivated
            state.snapshot.reachable = false
        }
        watchSignal.fire()
        snapshotSignal.fire()
        notifyDelegate { session, delegate in delegate.sessionDidDeactivate(session) }
    }

    private static var noWatches: WCError {
        WCError(.sessionNotSupported, message: "this phone lists no watches (configure `watches` to have several)")
    }
}

/// How a switch ends an activation: the first child of `runSession` to end with it closes the host.
struct WatchSwitched: Error {}
