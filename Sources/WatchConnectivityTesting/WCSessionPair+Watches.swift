import WatchConnectivity
import WatchPairCore
import WatchPairTesting

/// A phone with several watches (``WCSessionPair/init(_:watches:clock:replyTimeout:logger:)``): what the user
/// does in the Watch app, and each watch's session (docs/Watches.md).
extension WCSessionPair {
    /// The session of the watch named `name` (a name given at init; with one watch, any name gives it).
    public func watch(_ name: String) -> WCSession {
        guard !watchNames.isEmpty else { return watch }
        guard let link = watchLinks[name] else { preconditionFailure("the pair has no watch named '\(name)': \(watchNames)") }
        return link.session
    }

    /// In memory: the network linking the phone and the watch named `name`; nil over sockets.
    public func network(of name: String) -> InMemoryNetwork? {
        watchNames.isEmpty ? network : watchLinks[name]?.network
    }

    /// Activates the session of the watch named `name` with a new recorder (as ``activate(_:forwardingTo:within:)``).
    @discardableResult
    public func activate(
        watch name: String, forwardingTo delegate: (any WCSessionDelegate)? = nil, within limit: Duration = SessionRecorder.defaultLimit
    ) async throws -> SessionRecorder {
        try await activate(watch(name), key: "watch:\(name)", forwardingTo: delegate, within: limit)
    }

    /// The phone's watches (paired, installed as last seen), in order; empty with one watch.
    public var watches: [PhoneWatch] { phone.watches }

    /// The phone's active watch (nil: none is paired and active, or one watch).
    public var activeWatch: String? { phone.activeWatch }

    /// Makes `name` the phone's active watch, as the user does: the phone's session goes `.inactive`
    /// (`sessionDidBecomeInactive`), then, once the old watch's queue has drained or its link is gone,
    /// `.notActivated` (`sessionDidDeactivate`); the app re-activates (`activate()`) and is bound to `name`.
    /// Returns once the session is `.inactive` (or nothing was to do).
    /// - Throws: `WCError` 7008 (unknown watch), 7005 (not paired), 7016 (a switch is in progress).
    public func `switch`(to name: String) async throws {
        try await phone.switchWatch(to: name)
    }

    /// Pairs the watch `name` again after ``unpair(_:)`` (with no watch active it becomes the active one).
    /// - Throws: `WCError` 7008 (unknown watch).
    public func pair(_ name: String) async throws {
        try await phone.pairWatch(name)
    }

    /// Unpairs the watch `name`: what the phone queued for it is dropped (returned), with its watch
    /// directory. Unpairing the active watch deactivates the phone's session first.
    /// - Throws: `WCError` 7008 (unknown watch), 7005 (not paired).
    @discardableResult
    public func unpair(_ name: String) async throws -> QueuedCounts {
        try await phone.unpairWatch(name)
    }
}
