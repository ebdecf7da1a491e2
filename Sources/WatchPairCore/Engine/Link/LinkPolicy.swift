import Foundation
import WatchPairWire

/// The link's pure decisions: handshake validation, which of two links carries traffic, reachability,
/// when a presence link is owed, and the backoff after a close.
enum LinkPolicy {
    /// Why a hello must be refused (role, pair), or nil. The channels check their own claims
    /// (``UserInfoSender``, ``ContextSender``).
    static func refusal(of hello: Hello, role: Role, pairId: String) -> String? {
        if hello.role != role.peer {
            return "peer says it is \(hello.role.rawValue), expected \(role.peer.rawValue)"
        }
        if hello.pairId != pairId {
            return "peer belongs to pair '\(hello.pairId)', this side to '\(pairId)'"
        }
        return nil
    }

    /// Why a hello must be refused because this side is already linked to another peer store: two
    /// peers claiming to be this pair's counterpart at once (a second process of the same user saying
    /// hello next to the real one). The link already established stays; the newcomer is refused with a
    /// reason naming both. `linked` is the established, open links' (id, peer store); nil when none
    /// conflicts. A second link from the same store (both sides connecting at once) is no conflict.
    static func conflict(of hello: Hello, role: Role, linked: [(id: UInt64, storeId: UUID)]) -> String? {
        guard let other = linked.first(where: { $0.storeId != hello.storeId }) else { return nil }
        return "already linked to \(role.peer.daemonName) store \(other.storeId) on link#\(other.id); "
            + "a second \(role.peer.rawValue) (store \(hello.storeId)) is refused"
    }

    /// One side's view of a link for preference: who opened it and its local id (higher is newer).
    struct Candidate: Sendable, Hashable {
        let initiator: Role
        let id: UInt64
    }

    /// Whether `candidate` should carry new traffic instead of `existing`. Both sides choose alike: the
    /// link the phone opened, else the newer. The other stays open and still serves what arrives on it.
    static func prefers(_ candidate: Candidate, over existing: Candidate?) -> Bool {
        guard let existing, existing != candidate else { return true }
        if existing.initiator == candidate.initiator { return candidate.id > existing.id }
        return candidate.initiator == .phone
    }

    /// `isReachable` (docs/Lifecycle.md): the phone needs a handshaken link to a foreground watch app; the
    /// watch needs the phone app listening (its link can be made, launching it if needed). Never when the
    /// peer app is not installed (``WatchState``).
    static func isReachable(role: Role, linkedPeerLaunch: LaunchMode?, linked: Bool, presence: PeerPresence) -> Bool {
        guard presence.watchState.installed else { return false }
        return switch role {
        case .phone: linkedPeerLaunch == .foreground
        case .watch: linked || presence.listening
        }
    }

    /// A foreground phone app links to a running watch app so both see each other as reachable. Only the
    /// phone does this, so two apps starting together do not race to open two links. Not while it refuses
    /// the watch's transfers for lack of room: each presence link would bring them again, to be refused
    /// again, in a loop; it links back once its app has made room.
    static func wantsPresenceLink(role: Role, launch: LaunchMode, presence: PeerPresence, refusingForSpace: Bool = false) -> Bool {
        role == .phone && launch == .foreground && presence.running && presence.watchState.installed && !refusingForSpace
    }

    /// Content outlives its sender (docs/Design.md, "Links and lifecycle"): a peer app that is installed but
    /// not running and announced content for this side is linked to, which launches it in the background, so
    /// it delivers. Either side, any launch mode. Not when it runs (it links by itself: a second link would
    /// only race it), not while this side refuses the peer's transfers for room (the link would bring them
    /// again), not when nothing listens (device off: the content waits), and not when the peer app is not
    /// installed (an uninstalled app is never launched).
    static func wantsDeliveryLink(presence: PeerPresence, refusingForSpace: Bool) -> Bool {
        presence.contentPending && presence.listening && !presence.running && presence.watchState.installed && !refusingForSpace
    }
}

extension LinkPolicy {
    /// Why this side opens a link now. The first that applies, in this order.
    enum LinkReason: Sendable, Hashable {
        /// userInfo, context or files wait for the peer: content launches the peer app (wake rules).
        case content
        /// The peer app announced content for this side and is installed but not running: the link
        /// launches it, so that it delivers (content outlives its sender).
        case delivery
        /// This side refused the peer's transfers for room, has room again, and the peer runs.
        case room
        /// A foreground phone links to a running watch app, so that both know reachability.
        case presence

        /// Whether the link may start the peer app (socket activation queues the connect and starts the
        /// app). Only content owed, in either direction, may; a link for presence or room is for an app
        /// that runs, and an idle peer never relaunches an app that went away (stopped or crashed).
        var mayLaunchPeer: Bool {
            switch self {
            case .content, .delivery: true
            case .room, .presence: false
            }
        }
    }

    /// The reason for a link, or nil when none is needed: content first, then delivery, room, presence.
    static func linkReason(contentForPeer: Bool, deliveryLink: Bool, owesRoom: Bool, presenceLink: Bool) -> LinkReason? {
        if contentForPeer { return .content }
        if deliveryLink { return .delivery }
        if owesRoom { return .room }
        if presenceLink { return .presence }
        return nil
    }

    /// Whether a link for `reason` may be opened once the peer's process was asked whether it answers
    /// (``Transport/peerAnswers()``; nil: not asked). A link that must not launch the peer needs a peer
    /// that answers: its control socket accepting a connect is not enough, since a killed app's still
    /// does while the kernel tears it down, after its link has already closed.
    static func mayOpen(_ reason: LinkReason, peerAnswers: Bool?) -> Bool {
        reason.mayLaunchPeer || peerAnswers == true
    }
}

extension LinkPolicy {
    /// How the driver waits before its next attempt once a close left it a delay.
    enum HoldOff: Sendable, Hashable {
        /// Attempt now.
        case none
        /// The peer pushes back: only a change at the peer (its endpoints, or it linking back) or the delay
        /// ends the wait; new content must not, or a full peer is hammered.
        case untilPeerChanges(Duration)
        /// After a failure: new content or the delay ends the wait.
        case untilContent(Duration)
    }

    /// The wait before the next attempt, decided when the driver is about to wait (not when the link
    /// closed): this side's app may have made room while the link it refused on was still closing, and
    /// then the link back it owes must not wait out a backoff booked after the room was made.
    static func holdOff(_ delay: Duration?, peerRefusing: Bool, owesRoomNow: Bool) -> HoldOff {
        guard let delay, !owesRoomNow else { return .none }
        return peerRefusing ? .untilPeerChanges(delay) : .untilContent(delay)
    }

    /// The wait after a failed attempt; `peerListening` is what the probe after the failure saw at the
    /// peer's link endpoint. New content ends the wait, unless nothing listens there (device off, or an app
    /// killed without its socket unit): no attempt can succeed before that endpoint changes, which the
    /// peer watcher reports at once, so only that change or the delay ends it. Otherwise a phone whose
    /// watch is off would try to connect, and probe the watch, for every transfer its app makes.
    static func retryWait(_ delay: Duration, peerListening: Bool) -> HoldOff {
        peerListening ? .untilContent(delay) : .untilPeerChanges(delay)
    }
}

extension ReconnectStateMachine {
    /// Backoff on close: the delay before the next attempt after a link closed for `reason`, or nil to
    /// reconnect as soon as content needs it. A refusal for space is back pressure (``peerRefused(jitter:)``,
    /// no give-up); a rejected frame, a refused handshake or another link error would repeat at once, so
    /// it counts as a failed attempt.
    mutating func linkClosed(_ reason: CloseReason, jitter: Double) -> Duration? {
        if case .peerError(.insufficientSpace) = reason {
            guard case .retry(let delay) = peerRefused(jitter: jitter) else { return nil }
            return delay
        }
        guard reason.warrantsBackoff, case .retry(let delay) = attemptFailed(jitter: jitter) else { return nil }
        return delay
    }
}
