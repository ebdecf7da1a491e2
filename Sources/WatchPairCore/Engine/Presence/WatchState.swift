import WatchPairWire

/// Whether the peer app counts as installed, from everything that can say so without it running
/// (docs/Lifecycle.md): its installation record and its socket unit file. Whether it listens or runs does not count: a
/// device that is off (nothing listens) still has the app installed, and so does a socket unit started
/// without being enabled (its socket launches the app).
public struct WatchState: Sendable, Hashable {
    /// `isWatchAppInstalled` (phone) / `isCompanionAppInstalled` (watch).
    public var installed: Bool
    /// `isComplicationEnabled` (phone): the watch app is installed and its complication is enabled.
    public var complicationEnabled: Bool

    /// Creates a state.
    public init(installed: Bool, complicationEnabled: Bool = false) {
        self.installed = installed
        self.complicationEnabled = complicationEnabled && installed
    }

    /// The state `presence` shows: installed unless the record says uninstalled, or the socket unit is
    /// masked or has no unit file. Enablement does not count (`enable` only says whether the socket
    /// listens from boot), nor does an unknown unit state (not under systemd).
    public init(_ presence: PeerPresence) {
        let unitAllows = switch presence.unitFileState {
        case .masked?, .notFound?: false
        case .enabled?, .disabled?, nil: true
        }
        installed = presence.installation.installed && unitAllows
        complicationEnabled = installed && presence.installation.complicationEnabled
    }

    /// Why content for a peer in this state must fail at once, or nil when it may be sent or queued:
    /// 7006 (watchAppNotInstalled) on the phone, 7018 (companionAppNotInstalled) on the watch.
    public func refusal(role: Role) -> WCFailure? {
        guard !installed else { return nil }
        return switch role {
        case .phone: WCFailure(.watchAppNotInstalled, "the watch app is not installed")
        case .watch: WCFailure(.companionAppNotInstalled, "the phone app is not installed")
        }
    }
}

/// Follows the peer's ``WatchState`` across probes and says when `sessionWatchStateDidChange` is due:
/// on a change (installed, complication enabled), never on the first look (activation) and never for
/// launches (running is not part of it).
struct WatchStateMachine: Sendable {
    /// What the machine tells its executor.
    enum Action: Sendable, Hashable {
        /// Nothing changed (or this was the first look): no callback, no event.
        case none
        /// The state changed from the first to the second: report it.
        case changed(from: WatchState, to: WatchState)
    }

    /// The state last seen; nil before the first probe.
    private(set) var current: WatchState?

    /// A probe saw `state`.
    mutating func event(probed state: WatchState) -> Action {
        defer { current = state }
        guard let current, current != state else { return .none }
        return .changed(from: current, to: state)
    }
}
