import Testing
@testable import WatchPairCore

/// The context sender as a table: versions, the identical rule's effect (no new version), in-flight and
/// acknowledgement.
@Suite("machine: context sender")
struct ContextSenderTests {
    @Test("one frame in flight; the newest goes next; acks record, stale acks do nothing")
    func flow() {
        var sender = ContextSender(sentVersion: 0, peerAck: 0)
        let steps: [(ContextSender.Event, ContextSender.Action)] = [
            (.linkChanged, .none),
            (.updated(version: 1), .none),
            (.readyToSend(newest: 1), .send(version: 1)),
            (.updated(version: 2), .none),
            (.updated(version: 3), .none),
            (.readyToSend(newest: 3), .none),  // 1 is still in flight
            (.ack(version: 1), .recordHeld(version: 1)),
            (.readyToSend(newest: 3), .send(version: 3)),  // 2 is skipped: last value wins
            (.ack(version: 3), .recordHeld(version: 3)),
            (.ack(version: 2), .none),
            (.readyToSend(newest: 3), .none),
        ]
        for (index, (event, expected)) in steps.enumerated() {
            #expect(sender.event(event) == expected, "step \(index): \(event)")
        }
        #expect(sender.peerAck == 3)
        #expect(!sender.wantsToSend)
    }

    @Test("an ack or a hello for a version never sent is rejected and applies nothing")
    func forged() {
        var sender = ContextSender(sentVersion: 4, peerAck: 2)
        guard case .reject = sender.event(.ack(version: 5)) else {
            Issue.record("expected a rejection")
            return
        }
        guard case .reject = sender.event(.hello(holds: 1 << 40)) else {
            Issue.record("expected a rejection")
            return
        }
        #expect(sender.peerAck == 2)
        #expect(sender.violation(holding: 4) == nil)
        #expect(sender.violation(holding: 5) != nil)
    }

    @Test("a hello: a peer holding the newest is recorded; one that lost its store is owed it again")
    func hello() {
        var current = ContextSender(sentVersion: 4, peerAck: 2)
        #expect(current.event(.hello(holds: 4)) == .recordHeld(version: 4))
        var lost = ContextSender(sentVersion: 4, peerAck: 4)
        #expect(lost.event(.hello(holds: 0)) == .none)
        #expect(lost.peerAck == 0)
        #expect(lost.event(.linkChanged) == .none)
        #expect(lost.event(.readyToSend(newest: 4)) == .send(version: 4))
    }
}
