@testable import WatchPairCore
import Testing

/// Why a side opens a link, and whether that link may launch the peer app (docs/Design.md: an idle peer never
/// relaunches an app that went away; only content owed, in either direction, launches it).
@Suite("link reason")
struct LinkReasonTests {
    typealias Reason = LinkPolicy.LinkReason

    @Test("the first reason that applies: content, delivery, room, presence", arguments: [
        // (content for peer, delivery link, owes room, presence link) → reason
        (false, false, false, false, Reason?.none),
        (true, false, false, false, .content),
        (true, true, true, true, .content),
        (false, true, false, true, .delivery),
        (false, false, true, true, .room),
        (false, false, false, true, .presence),
    ])
    func reason(content: Bool, delivery: Bool, room: Bool, presence: Bool, expected: Reason?) {
        #expect(LinkPolicy.linkReason(contentForPeer: content, deliveryLink: delivery, owesRoom: room, presenceLink: presence) == expected)
    }

    @Test("only content owed may launch the peer; presence and room need a peer that answers", arguments: [
        // (reason, the peer answered: nil not asked) → may open
        (Reason.content, Bool?.none, true),
        (.delivery, nil, true),
        (.presence, nil, false),
        (.presence, false, false),  // killed: its control socket still accepts, nothing answers
        (.presence, true, true),
        (.room, false, false),
        (.room, true, true),
    ])
    func mayOpen(reason: Reason, answered: Bool?, expected: Bool) {
        #expect(LinkPolicy.mayOpen(reason, peerAnswers: answered) == expected)
    }
}
