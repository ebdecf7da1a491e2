import Foundation
import Testing
@testable import WatchPairCore
import WatchPairWire

/// The userInfo channel's machines as tables: sender acknowledgements, receiver chain.
@Suite("machine: userInfo")
struct UserInfoMachineTests {
    static let own = UUID()
    static let peer = UUID()

    static func hello(holds seq: UInt64, of store: UUID? = own, highestAssigned: UInt64) -> UserInfoSender.Event {
        .hello(
            peerStoreId: peer, resume: ResumeState(peerStoreId: store, lastUserInfoSeq: seq, contextVersion: 0),
            ownStoreId: own, highestAssigned: highestAssigned)
    }

    @Test("acknowledgements up to what was assigned are applied; beyond it they are rejected and change nothing")
    func senderAcks() {
        var sender = UserInfoSender()
        let steps: [(UserInfoSender.Event, UserInfoSender.Action, UInt64)] = [
            (Self.hello(holds: 3, highestAssigned: 10), .finish(upTo: 3), 3),
            (.ack(upTo: 7, highestAssigned: 10), .finish(upTo: 7), 7),
            (.ack(upTo: 5, highestAssigned: 10), .finish(upTo: 5), 7),  // older: idempotent, no step back
            (.ack(upTo: 11, highestAssigned: 10), .reject("the peer acknowledges userInfo up to 11, but only 10 were ever sent"), 7),
            (.ack(upTo: UInt64(Int64.max), highestAssigned: 10), .reject("the peer acknowledges userInfo up to 9223372036854775807, but only 10 were ever sent"), 7),
            (.ack(upTo: 11, highestAssigned: 11), .finish(upTo: 11), 11),
        ]
        for (index, (event, expected, acked)) in steps.enumerated() {
            #expect(sender.event(event) == expected, "step \(index)")
            #expect(sender.ackedUpTo == acked, "step \(index)")
        }
        #expect(sender.peerStoreId == Self.peer)
    }

    @Test(
        "the pump resumes from the acknowledgement on a new link or when the peer holds more, and writes at most the window ahead and what was assigned",
        arguments: [
            // (acked, cursor, new link, window, highest assigned) → (resume point, room after it)
            (UInt64(0), UInt64(0), true, UInt64(4), UInt64(100), UInt64(0), UInt64(4)),
            (5, 9, true, 4, 100, 5, 4),  // a new link starts again from what the peer acknowledged
            (5, 9, false, 4, 100, 9, 0),  // 4 in flight: the window is full, wait
            (5, 7, false, 4, 100, 7, 2),
            (8, 7, false, 4, 100, 8, 4),  // the peer holds more than was written here (a hello said so)
            (5, 5, false, 1, 100, 5, 1),
            (5, 7, false, 4, 7, 7, 0),  // everything assigned is written: wait, the outbox has nothing more
            (5, 7, false, 4, 8, 7, 1),  // one more assigned than written
            (0, 0, true, 4, 0, 0, 0),  // nothing ever queued
            (5, 6, true, 8, 6, 5, 1),  // a new link: only seq 6 is left after the acknowledgement
        ] as [(UInt64, UInt64, Bool, UInt64, UInt64, UInt64, UInt64)])
    func pumpWindow(
        acked: UInt64, cursor: UInt64, newLink: Bool, window: UInt64, highestAssigned: UInt64, resume: UInt64, room: UInt64
    ) {
        var sender = UserInfoSender()
        if acked > 0 { _ = sender.event(.ack(upTo: acked, highestAssigned: 100)) }
        let point = sender.resumePoint(cursor: cursor, newLink: newLink)
        #expect(point == resume)
        #expect(sender.room(after: point, window: window, highestAssigned: highestAssigned) == room)
    }

    @Test("a forged hello claiming everything received is rejected before anything changes")
    func forgedHello() {
        var sender = UserInfoSender()
        let forged = Self.hello(holds: UInt64(1) << 63, highestAssigned: 20)
        guard case .reject = sender.event(forged) else {
            Issue.record("a hello claiming 2^63 must be rejected")
            return
        }
        #expect(sender.peerStoreId == nil)
        #expect(sender.ackedUpTo == 0)
        // A hello about another store (or none) claims nothing of ours.
        #expect(sender.event(Self.hello(holds: UInt64(1) << 63, of: UUID(), highestAssigned: 20)) == .none)
        #expect(sender.event(Self.hello(holds: 9, of: nil, highestAssigned: 0)) == .none)
        #expect(sender.ackedUpTo == 0)
    }

    @Test("a new peer store starts from nothing acknowledged")
    func peerStoreChange() {
        var sender = UserInfoSender()
        #expect(sender.event(Self.hello(holds: 5, highestAssigned: 9)) == .finish(upTo: 5))
        let other = UserInfoSender.Event.hello(
            peerStoreId: UUID(), resume: ResumeState(peerStoreId: nil, lastUserInfoSeq: 0, contextVersion: 0),
            ownStoreId: Self.own, highestAssigned: 9)
        #expect(sender.event(other) == .none)
        #expect(sender.ackedUpTo == 0)
    }

    static func frame(_ seq: UInt64, after: UInt64) -> ReceivedUserInfo {
        ReceivedUserInfo(seq: seq, after: after, transferId: UUID(), payload: try! EncodedDictionary(["n": .integer(Int64(seq))]))
    }

    @Test("the receiver stores a contiguous chain, duplicates included, and stops at a gap")
    func receiverChain() {
        var receiver = UserInfoReceiver()
        #expect(receiver.event(.linked(heldUpTo: 2)) == .none)
        let duplicate = Self.frame(2, after: 1)
        let three = Self.frame(3, after: 2)
        let four = Self.frame(4, after: 3)
        let six = Self.frame(6, after: 5)
        #expect(receiver.event(.frames([duplicate, three, four])).stored == [2, 3, 4])
        #expect(receiver.event(.frames([duplicate, three, four])).gap == nil)
        #expect(receiver.heldUpTo == 2, "held moves only once the store committed")
        #expect(receiver.event(.stored(lastSeq: 4)) == .none)
        let withGap = receiver.event(.frames([Self.frame(5, after: 4), six, Self.frame(8, after: 7)]))
        #expect(withGap.stored == [5, 6])
        #expect(withGap.gap?.seq == 8)
        let lost = receiver.event(.frames([six]))
        #expect(lost.stored == [])
        #expect(lost.gap?.seq == 6, "6 names 5, but 4 is the last held")
    }
}

extension UserInfoReceiver.Action {
    /// The seqs this action stores.
    var stored: [UInt64]? {
        guard case .store(let chain, _) = self else { return nil }
        return chain.map(\.seq)
    }

    var gap: ReceivedUserInfo? {
        guard case .store(_, let gap) = self else { return nil }
        return gap
    }
}

