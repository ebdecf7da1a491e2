import WatchPairWire

/// A phone with several watches and watch switching as Apple's devices do it: a pure machine.
///
/// One paired watch at a time is *active*; the phone app's session is *bound* to one watch (its queues,
/// its link, its `watchDirectoryURL`). Switching to another watch (the user in the Watch app, or
/// `wcctl switch NAME`) runs Apple's sequence:
///
/// 1. the session goes `.inactive` (`sessionDidBecomeInactive`): content already queued for the old watch
///    is still delivered, new sends and transfers fail with 7016 (sessionInactive);
/// 2. once the old watch's queue is drained or its link is gone, the session goes `.notActivated`
///    (`sessionDidDeactivate`) and the old watch's engine is closed; what is still queued stays that
///    watch's and goes out when it is active again;
/// 3. the app calls `activate()` and is bound to the new active watch. An app that does not re-activate
///    stays `.notActivated`, as on a real phone.
///
/// Unpairing a watch drops its queue (the one place content is dropped, as on Apple's devices); unpairing
/// the active watch deactivates the session at once (nothing is left to drain) and leaves no watch
/// active until a `switch` (`isPaired` false after the app re-activates). Pairing a watch while none is
/// active makes it active; otherwise it waits for a `switch`. While the session is activated with no
/// watch, a pairing or a switch binds it directly (`sessionWatchStateDidChange`: `isPaired` turns true).
///
/// Errors are ``WCFailure``s: an unknown name 7008 (invalidParameter), a watch not paired 7005
/// (deviceNotPaired), a switch while one is in progress 7016 (sessionInactive). A failed event changes
/// nothing.
public struct WatchSwitchMachine: Sendable, Hashable {
    /// The phone session's activation state, as the app sees it.
    public enum Session: Sendable, Hashable {
        /// Never activated, or deactivated after a switch and not re-activated.
        case notActivated
        /// Switching away from `from`: its queued content drains, new content is refused (7016).
        case inactive(from: String)
        /// Activated, bound to `watch` (nil: no watch is paired and active, `isPaired` false).
        case activated(watch: String?)
    }

    /// What happened.
    public enum Event: Sendable, Hashable {
        /// Pair the listed watch `name` (again).
        case pair(String)
        /// Unpair `name`: its queue is dropped.
        case unpair(String)
        /// Make `name` the active watch.
        case switchTo(String)
        /// The old watch's already-queued content is all delivered, or its link is gone: finish the switch.
        case drained(String)
        /// The app called `activate()`.
        case activate
        /// The activation ended other than by a switch or an unpair: it failed, its host stopped, or the app
        /// exited. The session is `.notActivated`; nothing is reported (the host reports what ended it).
        case activationEnded
        /// A probe saw `name`'s watch app installed or not.
        case installation(String, installed: Bool)
        /// The app starts a send or transfer: may it?
        case newContent
    }

    /// What the host does, in order.
    public enum Action: Sendable, Hashable {
        /// Set the session `.inactive` and call `sessionDidBecomeInactive`.
        case reportInactive
        /// Close the engine of watch `name` (what stays queued is kept in its store).
        case close(String)
        /// Set the session `.notActivated` and call `sessionDidDeactivate`.
        case reportDeactivated
        /// Open watch `name`'s engine and bind the app to it (nil: no watch, `isPaired` false); then
        /// complete the activation (`activationDidCompleteWith`).
        case bind(String?)
        /// Drop everything queued for `name` and remove its watch directory; journal how many items
        /// went (the host counts them as it deletes).
        case dropQueue(String)
        /// Call `sessionWatchStateDidChange` (the bound watch's paired or installed state changed).
        case watchStateChanged
        /// The new send or transfer goes to watch `name`'s engine.
        case accept(String)
        /// Fail the send or transfer with this error.
        case refuse(WCFailure)
    }

    /// The watches, in the configuration's order.
    public private(set) var watches: [PhoneWatch]
    /// The active watch (nil: none is paired, or the active one was unpaired).
    public private(set) var active: String?
    /// The session's activation state.
    public private(set) var session: Session = .notActivated

    /// A phone with `watches` (names unique) and `active` the active one (nil: the first paired one).
    /// The session starts `.notActivated`: the app has not called `activate()`.
    public init(watches: [PhoneWatch], active: String? = nil) {
        self.watches = watches
        let pairedNames = watches.filter(\.paired).map(\.name)
        self.active = active.flatMap { pairedNames.contains($0) ? $0 : nil } ?? pairedNames.first
    }

    /// The watch named `name`, if listed.
    public func watch(_ name: String) -> PhoneWatch? {
        watches.first { $0.name == name }
    }

    /// The watch the app's session is bound to (activated), or draining (inactive).
    public var bound: String? {
        switch session {
        case .notActivated: nil
        case .inactive(let from): from
        case .activated(let watch): watch
        }
    }

    /// Applies one event; the host executes the actions in order. Throws (changing nothing) for an
    /// unknown watch, a watch that is not paired, or a switch while one is in progress.
    public mutating func event(_ event: Event) throws(WCFailure) -> [Action] {
        switch event {
        case .pair(let name): return try pair(name)
        case .unpair(let name): return try unpair(name)
        case .switchTo(let name): return try switchTo(name)
        case .drained(let name): return drained(name)
        case .activate: return activate()
        case .activationEnded:
            session = .notActivated
            return []
        case .installation(let name, let installed): return try installation(name, installed: installed)
        case .newContent: return [newContent()]
        }
    }

    private mutating func pair(_ name: String) throws(WCFailure) -> [Action] {
        let index = try indexOf(name)
        guard !watches[index].paired else { return [] }
        watches[index].paired = true
        guard active == nil else { return [] }
        active = name
        // An activated session with no watch binds to the new one: the app sees `isPaired` turn true.
        guard session == .activated(watch: nil) else { return [] }
        session = .activated(watch: name)
        return [.bind(name), .watchStateChanged]
    }

    private mutating func unpair(_ name: String) throws(WCFailure) -> [Action] {
        let index = try indexOf(name)
        guard watches[index].paired else { throw Self.notPaired(name) }
        watches[index].paired = false
        if active == name { active = nil }
        switch session {
        case .activated(watch: name?):
            // Nothing is left to drain: the session goes through inactive to deactivated at once.
            session = .notActivated
            return [.reportInactive, .close(name), .dropQueue(name), .reportDeactivated]
        case .inactive(from: name):
            session = .notActivated
            return [.close(name), .dropQueue(name), .reportDeactivated]
        case .notActivated, .activated, .inactive:
            return [.dropQueue(name)]
        }
    }

    private mutating func switchTo(_ name: String) throws(WCFailure) -> [Action] {
        let index = try indexOf(name)
        guard watches[index].paired else { throw Self.notPaired(name) }
        if case .inactive(let from) = session {
            throw WCFailure(.sessionInactive, "a switch from watch '\(from)' is in progress: wait until the session is deactivated")
        }
        guard active != name else { return [] }
        active = name
        switch session {
        case .activated(let watch?):
            session = .inactive(from: watch)
            return [.reportInactive]
        case .activated(nil):
            // No watch was bound (the active one was unpaired): nothing to drain, bind as a pairing does.
            session = .activated(watch: name)
            return [.bind(name), .watchStateChanged]
        case .notActivated, .inactive:
            return []
        }
    }

    private mutating func drained(_ name: String) -> [Action] {
        guard session == .inactive(from: name) else { return [] }
        session = .notActivated
        return [.close(name), .reportDeactivated]
    }

    private mutating func activate() -> [Action] {
        // Apple ignores activate() while the session is inactive; the app calls it again after
        // sessionDidDeactivate.
        guard session == .notActivated else { return [] }
        session = .activated(watch: active)
        return [.bind(active)]
    }

    private mutating func installation(_ name: String, installed: Bool) throws(WCFailure) -> [Action] {
        let index = try indexOf(name)
        guard watches[index].installed != installed else { return [] }
        watches[index].installed = installed
        return session == .activated(watch: name) ? [.watchStateChanged] : []
    }

    private func newContent() -> Action {
        switch session {
        case .notActivated:
            .refuse(WCFailure(.sessionNotActivated, "the session is not activated: call activate()"))
        case .inactive(let from):
            .refuse(WCFailure(.sessionInactive, "the session is inactive: switching away from watch '\(from)'"))
        case .activated(nil):
            .refuse(WCFailure(.deviceNotPaired, "no watch is paired and active"))
        case .activated(let watch?):
            .accept(watch)
        }
    }

    private func indexOf(_ name: String) throws(WCFailure) -> Int {
        guard let index = watches.firstIndex(where: { $0.name == name }) else {
            let known = watches.map(\.name).joined(separator: ", ")
            throw WCFailure(.invalidParameter, "unknown watch '\(name)': the phone's watches are \(known.isEmpty ? "none" : known)")
        }
        return index
    }

    private static func notPaired(_ name: String) -> WCFailure {
        WCFailure(.deviceNotPaired, "watch '\(name)' is not paired: pair it first")
    }
}
