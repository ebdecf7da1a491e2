import Foundation
import Testing
@testable import WatchPairCore
import WatchPairWire

/// The link's pure decisions as tables: handshake, preference, reachability, state, backoff on close.
@Suite("machine: link")
struct LinkMachineTests {
    static func hello(_ role: Role, pair: String = "default") -> Hello {
        Hello(role: role, pairId: pair, storeId: UUID(), launch: .foreground,
              resume: ResumeState(peerStoreId: nil, lastUserInfoSeq: 0, contextVersion: 0))
    }

    @Test("a hello must come from the other role of the same pair")
    func handshake() {
        #expect(LinkPolicy.refusal(of: Self.hello(.watch), role: .phone, pairId: "default") == nil)
        #expect(LinkPolicy.refusal(of: Self.hello(.phone), role: .phone, pairId: "default") != nil)
        #expect(LinkPolicy.refusal(of: Self.hello(.watch, pair: "other"), role: .phone, pairId: "default") != nil)
    }

    @Test("a hello from another peer store while one is linked is refused; the same store's second link is not")
    func conflict() throws {
        let real = UUID(), intruder = UUID()
        func hello(_ store: UUID) -> Hello {
            Hello(role: .phone, pairId: "default", storeId: store, launch: .foreground,
                  resume: ResumeState(peerStoreId: nil, lastUserInfoSeq: 0, contextVersion: 0))
        }
        #expect(LinkPolicy.conflict(of: hello(intruder), role: .watch, linked: []) == nil, "nothing linked")
        #expect(LinkPolicy.conflict(of: hello(real), role: .watch, linked: [(UInt64(1), real)]) == nil, "both sides connected at once")
        let refusal = try #require(LinkPolicy.conflict(of: hello(intruder), role: .watch, linked: [(UInt64(1), real)]))
        #expect(refusal == "already linked to phoned store \(real) on link#1; a second phone (store \(intruder)) is refused")
    }

    @Test("of two links, the one the phone opened wins, else the newer", arguments: [
        (Role.phone, UInt64(1), Role.watch, UInt64(2), true),
        (.watch, 3, .phone, 1, false),
        (.watch, 3, .watch, 2, true),
        (.watch, 2, .watch, 3, false),
    ])
    func preference(candidate: Role, candidateId: UInt64, existing: Role, existingId: UInt64, wins: Bool) {
        let result = LinkPolicy.prefers(
            LinkPolicy.Candidate(initiator: candidate, id: candidateId),
            over: LinkPolicy.Candidate(initiator: existing, id: existingId))
        #expect(result == wins)
        #expect(LinkPolicy.prefers(LinkPolicy.Candidate(initiator: candidate, id: candidateId), over: nil))
    }

    @Test("reachability and presence links")
    func reachability() {
        let none = PeerPresence(listening: false, running: false)
        let installed = PeerPresence(listening: true, running: false)
        let running = PeerPresence(listening: true, running: true)
        #expect(LinkPolicy.isReachable(role: .phone, linkedPeerLaunch: .foreground, linked: true, presence: none))
        #expect(!LinkPolicy.isReachable(role: .phone, linkedPeerLaunch: .background, linked: true, presence: running))
        #expect(!LinkPolicy.isReachable(role: .phone, linkedPeerLaunch: nil, linked: false, presence: running))
        #expect(LinkPolicy.isReachable(role: .watch, linkedPeerLaunch: nil, linked: false, presence: installed))
        #expect(!LinkPolicy.isReachable(role: .watch, linkedPeerLaunch: nil, linked: false, presence: none))
        #expect(LinkPolicy.wantsPresenceLink(role: .phone, launch: .foreground, presence: running))
        #expect(!LinkPolicy.wantsPresenceLink(role: .phone, launch: .background, presence: running))
        #expect(!LinkPolicy.wantsPresenceLink(role: .watch, launch: .foreground, presence: running))
        #expect(!LinkPolicy.wantsPresenceLink(role: .phone, launch: .foreground, presence: installed))
        #expect(!LinkPolicy.wantsPresenceLink(role: .phone, launch: .foreground, presence: running, refusingForSpace: true),
                "a phone refusing the watch's transfers for room makes no presence links")
    }

    @Test("a stopped peer announcing content for this side is linked to when installed, unless this side refuses for room", arguments: [
        // (installed, running, content pending, refusing for space) → link
        (true, false, true, false, true),
        (true, true, true, false, false),
        (false, false, true, false, false),
        (true, false, false, false, false),
        (true, false, true, true, false),
    ])
    func deliveryLink(installed: Bool, running: Bool, pending: Bool, refusing: Bool, expected: Bool) {
        let presence = PeerPresence(listening: installed, running: running, contentPending: pending)
        #expect(LinkPolicy.wantsDeliveryLink(presence: presence, refusingForSpace: refusing) == expected)
    }

    @Test("the wait before the next attempt", arguments: [
        // (delay booked at the close, the peer refuses for space, this side owes room now) → the wait
        (nil, false, false, LinkPolicy.HoldOff.none),
        (nil, true, true, .none),
        (Duration.seconds(3600), false, false, .untilContent(.seconds(3600))),
        (.seconds(3600), true, false, .untilPeerChanges(.seconds(3600))),
        // The app made room while the refusing link was still closing: the link back is owed now, and a
        // backoff booked after the room was made must not delay it (a CI run waited out its half hour).
        (.seconds(3600), false, true, .none),
        (.seconds(3600), true, true, .none),
    ] as [(Duration?, Bool, Bool, LinkPolicy.HoldOff)])
    func holdOff(delay: Duration?, peerRefusing: Bool, owesRoomNow: Bool, expected: LinkPolicy.HoldOff) {
        #expect(LinkPolicy.holdOff(delay, peerRefusing: peerRefusing, owesRoomNow: owesRoomNow) == expected)
    }

    @Test("the wait after a failed attempt: new content ends it only while something listens at the peer", arguments: [
        // (the probe after the failure saw the peer's link endpoint listening) → the wait
        (true, LinkPolicy.HoldOff.untilContent(.seconds(3))),
        // Device off: nothing can connect until the endpoint appears, which the peer watcher reports.
        (false, .untilPeerChanges(.seconds(3))),
    ])
    func retryWait(peerListening: Bool, expected: LinkPolicy.HoldOff) {
        #expect(LinkPolicy.retryWait(.seconds(3), peerListening: peerListening) == expected)
    }

    @Test("link state keeps the strings users see")
    func state() {
        #expect(LinkState(established: true, opening: true, gaveUp: true).description == "connected")
        #expect(LinkState(established: false, opening: true, gaveUp: true).description == "connecting")
        #expect(LinkState(established: false, opening: false, gaveUp: true).description == "disconnected: timed out")
        #expect(LinkState(established: false, opening: false, gaveUp: false).description == "disconnected")
    }

    static let policy = BackoffPolicy(initial: .milliseconds(100), multiplier: 2, maximum: .seconds(5), giveUpAfter: .seconds(10))

    @Test("refusals for space back off up to the cap and never give up; other errors do")
    func backoffOnClose() {
        var machine = ReconnectStateMachine(policy: Self.policy)
        var waited: Duration = .zero
        for attempt in 0..<200 {
            let delay = machine.linkClosed(.peerError(.insufficientSpace), jitter: 0.999_999)
            #expect(delay != nil, "refusal \(attempt) must be retried")
            waited += delay ?? .zero
            #expect((delay ?? .zero) <= Self.policy.maximum)
        }
        #expect(waited > Self.policy.giveUpAfter * 10)
        #expect(machine.isRefused)
        #expect(!machine.isTimedOut)
        // A refusing peer that then cannot be reached starts an ordinary schedule, which can give up.
        #expect(machine.attemptFailed(jitter: 0.5) == .retry(after: .milliseconds(50)))
        #expect(!machine.isRefused)
        var rejecting = ReconnectStateMachine(policy: Self.policy)
        var gaveUp = false
        for _ in 0..<200 where !gaveUp {
            gaveUp = rejecting.linkClosed(.frameRejected(.invalidParameter), jitter: 0.999_999) == nil
        }
        #expect(gaveUp && rejecting.isTimedOut)
        var clean = ReconnectStateMachine(policy: Self.policy)
        #expect(clean.linkClosed(.endOfStream, jitter: 0.5) == nil)
        #expect(clean.state == .idle)
        var refusing = ReconnectStateMachine(policy: Self.policy)
        #expect(refusing.linkClosed(.refusedForSpace, jitter: 0.5) == .milliseconds(50), "the refusing side backs off its own reconnects")
        #expect(!refusing.isRefused)
    }
}
