import Testing
import WatchPairTimeline
import WatchPairWire

/// Events → diagram, one scenario per row: the events in time order, and what must be drawn.
@Suite("Timeline layout")
struct TimelineLayoutTests {
    /// An event at second `t` (after an arbitrary origin).
    static func e(
        _ t: Int64, _ role: Role, _ kind: String, _ message: String = "", seq: Int64? = nil, transfer: String? = nil,
        error: Int? = nil, us: Int64? = nil
    ) -> SessionEvent {
        SessionEvent(
            time: 1_795_000_000_000_000 + t * 1_000_000, role: role, kind: kind, message: message, transferId: transfer, seq: seq,
            errorCode: error, durationUs: us)
    }

    /// `kind role from→to "label"` per element.
    static func drawn(_ diagram: TimelineDiagram) -> [String] {
        diagram.elements.map { "\($0.kind.rawValue) \($0.role.rawValue) \($0.fromRow)→\($0.toRow) \($0.label)" }
    }

    static let table: [(String, [SessionEvent], [String])] = [
        (
            "an answered message: the arrow at the receiver, the reply back at the sender's outcome",
            [e(1, .watch, "messageReceived", seq: 1), e(2, .phone, "messageSent", "message 1 answered", seq: 1, us: 1500)],
            ["message phone 0→0 message 1", "reply watch 1→1 reply · 1.5 ms"]
        ),
        (
            "a message without reply handler draws no reply",
            [e(1, .watch, "messageReceived", seq: 4), e(2, .phone, "messageSent", "message 4 delivered", seq: 4)],
            ["message phone 0→0 message 4"]
        ),
        (
            "7007: the message never arrived and ends in a cross",
            [e(1, .phone, "messageFailed", "message 2 failed", seq: 2, error: 7007)],
            ["messageLost phone 0→0 message 2 ✕ 7007 notReachable"]
        ),
        (
            "7012: it arrived; the timeout comes back as an error",
            [e(1, .watch, "messageReceived", seq: 3), e(11, .phone, "messageFailed", seq: 3, error: 7012, us: 10_000_000)],
            ["message phone 0→0 message 3", "messageError watch 1→1 ✕ 7012 messageReplyTimedOut · 10.0 s"]
        ),
        (
            "7014: the receiver's own report draws the arrival, the sender's the error",
            [
                e(1, .watch, "messageFailed", "message 5 not handled: no handler", seq: 5, error: 7014),
                e(2, .phone, "messageFailed", "message 5 failed", seq: 5, error: 7014),
            ],
            ["message phone 0→0 message 5", "messageError watch 1→1 ✕ 7014 deliveryFailed"]
        ),
        (
            "the same message id from both apps is two messages",
            [
                e(1, .watch, "messageReceived", seq: 1), e(2, .phone, "messageReceived", seq: 1),
                e(3, .watch, "messageSent", "message 1 answered", seq: 1), e(4, .phone, "messageSent", "message 1 answered", seq: 1),
            ],
            ["message phone 0→0 message 1", "message watch 1→1 message 1", "reply phone 2→2 reply", "reply watch 3→3 reply"]
        ),
        (
            "a userInfo transfer: queued → received (slanted across the launch), then didFinish, all linked",
            [
                e(1, .phone, "userInfoQueued", seq: 1, transfer: "A"), e(2, .watch, "backgroundLaunch"),
                e(3, .watch, "userInfoDelivered", seq: 1, transfer: "A"), e(4, .phone, "userInfoFinished", seq: 1, transfer: "A"),
            ],
            ["backgroundLaunch watch 1→1 background launch", "userInfo phone 0→2 userInfo 1", "didFinish watch 3→3 didFinish 1"]
        ),
        (
            "a transfer never received stays visible as outstanding",
            [e(1, .phone, "userInfoQueued", seq: 7, transfer: "B")],
            ["queued phone 0→0 userInfo 7 outstanding"]
        ),
        (
            "context: the received version is an arrow, a superseded one a note",
            [
                e(1, .phone, "contextUpdated", seq: 1), e(2, .phone, "contextUpdated", seq: 2),
                e(3, .watch, "contextReceived", seq: 2),
            ],
            ["queued phone 0→0 context v1 not received", "context phone 1→2 context v2"]
        ),
        (
            "a launch after a run without idle exit: that run was stopped or killed",
            [e(1, .watch, "foregroundLaunch"), e(2, .watch, "peerConnected"), e(9, .watch, "foregroundLaunch")],
            ["foregroundLaunch watch 0→0 launched", "linkUp watch 1→1 link up", "ended watch 2→2 stopped or killed", "foregroundLaunch watch 3→3 launched"]
        ),
        (
            "a background launch and its idle exit; the next launch ends nothing",
            [e(1, .watch, "backgroundLaunch"), e(5, .watch, "idleExit"), e(9, .watch, "backgroundLaunch")],
            ["backgroundLaunch watch 0→0 background launch", "idleExit watch 1→1 idle exit", "backgroundLaunch watch 2→2 background launch"]
        ),
        (
            "a background launch opened by the user: a note on the same run, which no idle exit ends",
            [e(1, .watch, "backgroundLaunch"), e(3, .watch, "appOpened"), e(9, .watch, "peerConnected")],
            ["backgroundLaunch watch 0→0 background launch", "appOpened watch 1→1 opened: foreground", "linkUp watch 2→2 link up"]
        ),
        (
            "faults, link drops and reachability are notes; sessionActivated draws nothing; unknown events are kept",
            [
                e(1, .phone, "sessionActivated"), e(2, .phone, "frameRejected", error: 7008), e(3, .watch, "peerDisconnected"),
                e(4, .phone, "reachabilityChanged", "peer is not reachable"), e(5, .phone, "fileQueued"),
            ],
            ["fault phone 0→0 frame rejected · 7008", "linkDown watch 1→1 link down", "info phone 2→2 not reachable", "info phone 3→3 fileQueued"]
        ),
        (
            "a phone's watches: a switch, an unpair and a pairing are notes naming the watches",
            [
                e(1, .phone, "watchSwitched", "switching from watch 'a' to 'b': inactive until what was queued for 'a' drains"),
                e(2, .phone, "watchUnpaired", "watch 'a' is unpaired: 2 queued items dropped"), e(3, .phone, "watchPaired", "watch 'a' is paired again"),
            ],
            ["info phone 0→0 watch switch a → b", "info phone 1→1 watch a unpaired", "info phone 2→2 watch a paired"]
        ),
    ]

    @Test(arguments: table)
    func layout(_ scenario: String, _ events: [SessionEvent], _ expected: [String]) {
        #expect(Self.drawn(TimelineLayout.diagram(of: events)) == expected, "\(scenario)")
    }

    @Test func anInjectedQuirkIsANoteNamingIt() throws {
        let quirk = try SessionEvent(json: .object([
            "timestamp": .string(EventTimestamp.format(microseconds: 1_795_000_000_000_000)), "role": .string("phone"),
            "event": .string("quirkInjected"), "message": .string("quirk lateReply #1"), "quirk": .string("lateReply"),
            "seq": .integer(3),
        ]))
        #expect(Self.drawn(TimelineLayout.diagram(of: [quirk])) == ["quirk phone 0→0 quirk lateReply"])
    }

    @Test func theTransfersElementsShareItsId() {
        let diagram = TimelineLayout.diagram(of: Self.table[6].1)
        #expect(diagram.elements.filter { $0.link == "A" }.map(\.kind) == [.userInfo, .didFinish])
    }

    @Test func runsFollowLaunchesAndExits() {
        let events = [
            Self.e(1, .phone, "messageReceived", seq: 1), Self.e(2, .watch, "foregroundLaunch"), Self.e(3, .watch, "foregroundLaunch"),
            Self.e(4, .watch, "idleExit"),
        ]
        let runs = TimelineLayout.diagram(of: events).runs
        // The phone was already running (its first event is no launch); the watch ran twice, the first
        // run ending unseen after its last event (row 1), the second by its idle exit.
        #expect(runs == [
            TimelineRun(role: .phone, fromRow: 0, toRow: nil), TimelineRun(role: .watch, fromRow: 1, toRow: 1),
            TimelineRun(role: .watch, fromRow: 3, toRow: 4),
        ])
    }

    @Test func aDeliveredMessageWithoutReplyTakesOneRow() {
        let events = [Self.e(1, .watch, "messageReceived", seq: 4), Self.e(2, .phone, "messageSent", "message 4 delivered", seq: 4)]
        #expect(TimelineLayout.diagram(of: events).rows == [events[0].time])
    }

    @Test func rowsAreTheEventsTimesInOrder() {
        let diagram = TimelineLayout.diagram(of: Self.table[6].1)
        #expect(diagram.rows == Self.table[6].1.map(\.time))
    }
}
