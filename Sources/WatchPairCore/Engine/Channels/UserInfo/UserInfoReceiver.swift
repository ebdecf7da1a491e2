import Foundation
import WatchPairWire

/// The receiving side of the userInfo channel, as a pure state machine: the `after` chain.
///
/// Only a contiguous chain is accepted: each transfer must name the last one held in `after`, or be a
/// duplicate (seq at or below what is held; the store drops it). A gap means a frame was lost: what came
/// before it is stored and acknowledged, then the link is closed so the sender resumes from what this
/// side holds.
struct UserInfoReceiver: Sendable, Hashable {
    enum Event: Sendable, Hashable {
        /// The peer's hello: this side holds `heldUpTo` of the peer store's transfers.
        case linked(heldUpTo: UInt64)
        /// Consecutive userInfo frames, in arrival order.
        case frames([ReceivedUserInfo])
        /// The store committed received transfers up to `lastSeq`.
        case stored(lastSeq: UInt64)
    }

    enum Action: Sendable, Hashable {
        /// Store `chain` (one transaction; duplicates skipped), acknowledge what is held, then, when
        /// `gap` is set, reject it (close the link: a transfer is missing).
        case store(chain: [ReceivedUserInfo], gap: ReceivedUserInfo?)
        case none
    }

    /// The highest seq durably held from the peer store.
    private(set) var heldUpTo: UInt64 = 0

    mutating func event(_ event: Event) -> Action {
        switch event {
        case .linked(let held):
            heldUpTo = held
            return .none
        case .frames(let batch):
            var held = heldUpTo
            var chain: [ReceivedUserInfo] = []
            for transfer in batch {
                if transfer.seq > held {
                    guard transfer.after == held else { return .store(chain: chain, gap: transfer) }
                    held = transfer.seq
                }
                chain.append(transfer)
            }
            return .store(chain: chain, gap: nil)
        case .stored(let lastSeq):
            heldUpTo = max(heldUpTo, lastSeq)
            return .none
        }
    }
}

/// A userInfo frame as the receiver checks it.
struct ReceivedUserInfo: Sendable, Hashable {
    let seq: UInt64
    let after: UInt64
    let transferId: UUID
    let payload: EncodedDictionary
    /// It came in a `complicationUserInfo` frame (`isCurrentComplicationInfo`).
    var isCurrentComplicationInfo = false
}

extension ReceivedUserInfo {
    /// The transfer a `userInfo` or `complicationUserInfo` frame carries; nil for any other frame.
    init?(_ frame: Frame) {
        switch frame {
        case .userInfo(let seq, let after, let transferId, let payload):
            self.init(seq: seq, after: after, transferId: transferId, payload: payload)
        case .complicationUserInfo(let seq, let after, let transferId, let payload):
            self.init(seq: seq, after: after, transferId: transferId, payload: payload, isCurrentComplicationInfo: true)
        default:
            return nil
        }
    }
}
