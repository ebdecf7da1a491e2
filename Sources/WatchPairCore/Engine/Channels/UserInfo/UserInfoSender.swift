import Foundation
import WatchPairWire

/// The sending side of the userInfo channel, as a pure state machine: which peer store it talks to,
/// what that store has acknowledged, and whether an acknowledgement can be believed.
///
/// An acknowledgement (an `ack` frame, or a hello's `resume.lastUserInfoSeq` for this store) of a seq
/// this store never assigned is a protocol violation: applying it would mark queued transfers finished
/// (and report didFinish) though the peer never got them. It is rejected, never applied.
struct UserInfoSender: Sendable, Hashable {
    enum Event: Sendable, Hashable {
        /// A hello from peer store `peerStoreId`, holding `resume` (what it has of whose store).
        /// `highestAssigned` is the highest seq this store ever assigned.
        case hello(peerStoreId: UUID, resume: ResumeState, ownStoreId: UUID, highestAssigned: UInt64)
        /// An `ack` frame on an established link.
        case ack(upTo: UInt64, highestAssigned: UInt64)
    }

    enum Action: Sendable, Hashable {
        /// Mark the outbox finished up to this seq (durably) and tell the app; already-finished is a no-op.
        case finish(upTo: UInt64)
        /// Nothing to apply (the peer holds nothing of this store).
        case none
        /// A protocol violation: close the link, apply nothing.
        case reject(String)
    }

    /// The peer store the links talk to.
    private(set) var peerStoreId: UUID?
    /// What that store has acknowledged of this side's outbox.
    private(set) var ackedUpTo: UInt64 = 0

    /// Where the outbox pump continues on the current link, given the last seq it wrote there (`cursor`,
    /// which is also the `after` of its next frame): from what the peer acknowledged when the link is new
    /// or the peer holds more than was written (a hello said so), else where it was.
    func resumePoint(cursor: UInt64, newLink: Bool) -> UInt64 {
        newLink || cursor < ackedUpTo ? ackedUpTo : cursor
    }

    /// How many more transfers the pump may write after `cursor`: `window` minus those written and not
    /// yet acknowledged, and no more than the store has assigned past `cursor` (`highestAssigned`, kept
    /// in memory); 0 means wait, without reading the outbox, for an acknowledgement or new content.
    func room(after cursor: UInt64, window: UInt64, highestAssigned: UInt64) -> UInt64 {
        let inFlight = cursor > ackedUpTo ? cursor - ackedUpTo : 0
        let queued = highestAssigned > cursor ? highestAssigned - cursor : 0
        return min(inFlight < window ? window - inFlight : 0, queued)
    }

    mutating func event(_ event: Event) -> Action {
        switch event {
        case .hello(let peerStoreId, let resume, let ownStoreId, let highestAssigned):
            let claim = resume.peerStoreId == ownStoreId ? resume.lastUserInfoSeq : 0
            // Checked before anything changes: a refused hello leaves no trace.
            if claim > highestAssigned {
                return .reject("the peer claims userInfo up to \(claim) received, but only \(highestAssigned) were ever sent")
            }
            if self.peerStoreId != peerStoreId {
                self.peerStoreId = peerStoreId
                ackedUpTo = 0
            }
            guard claim > 0 else { return .none }
            ackedUpTo = max(ackedUpTo, claim)
            return .finish(upTo: claim)
        case .ack(let upTo, let highestAssigned):
            if upTo > highestAssigned {
                return .reject("the peer acknowledges userInfo up to \(upTo), but only \(highestAssigned) were ever sent")
            }
            ackedUpTo = max(ackedUpTo, upTo)
            return .finish(upTo: upTo)
        }
    }
}
