import Testing
import WatchPairWire

@testable import WatchPairCLI

/// `receive` and `events` against a fake daemon: print, then acknowledge; follow until interrupted or
/// until the daemon goes away.
@Suite("Receive and events")
struct ReceiveTests {
    static let userInfo = json(#"{"deliveryId":11,"seq":3,"transferId":"T3","userInfo":{"n":3},"receivedAt":"2024-05-01T12:00:00.000Z"}"#)
    static let context = json(#"{"version":4,"context":{"theme":"dark"}}"#)
    static let finished = json(#"{"transferId":"T1","seq":1,"userInfo":{}}"#)

    @Test func withoutFollowPrintsPendingItemsAndAcknowledgesEach() throws {
        let items = JSONValue.array([
            .object(["event": .string("userInfo"), "data": Self.userInfo]),
            .object(["event": .string("applicationContext"), "data": Self.context]),
            .object(["event": .string("didFinish"), "data": Self.finished]),
        ])
        try withServer({ request in
            request[field: "op"] == .string("receive") ? [Reply.ok(request, .object(["items": items]))] : [Reply.ok(request)]
        }) { server in
            let result = runWcctl(["--side", "watch", "receive"], server: server)
            #expect(result.status == 0)
            #expect(result.err.isEmpty)
            #expect(result.out == """
                {"channel":"userInfo","receivedAt":"2024-05-01T12:00:00.000Z","seq":3,"transferId":"T3","userInfo":{"n":3}}
                {"channel":"applicationContext","context":{"theme":"dark"},"version":4}
                {"channel":"didFinish","seq":1,"transferId":"T1","userInfo":{}}

                """)
            server.waitUntilFinished()
            #expect(server.requests.map(shape) == [
                #"{"follow":false,"op":"receive"}"#,
                #"{"deliveryId":11,"op":"ack"}"#,
                #"{"contextVersion":4,"op":"ack"}"#,
                #"{"finished":["T1"],"op":"ack"}"#,
            ])
        }
    }

    @Test func noAckOnlyPrints() throws {
        let items = JSONValue.array([.object(["event": .string("userInfo"), "data": Self.userInfo])])
        try withServer({ request in [Reply.ok(request, .object(["items": items]))] }) { server in
            let result = runWcctl(["receive", "--no-ack", "--channel", "userInfo", "--channel", "userInfo"], server: server)
            #expect(result.status == 0)
            #expect(result.out.split(separator: "\n").count == 1)
            server.waitUntilFinished()
            #expect(server.requests.map(shape) == [#"{"channels":["userInfo"],"follow":false,"op":"receive"}"#])
        }
    }

    @Test func aFailedAckIsReported() throws {
        let items = JSONValue.array([.object(["event": .string("userInfo"), "data": Self.userInfo])])
        try withServer({ request in
            request[field: "op"] == .string("receive")
                ? [Reply.ok(request, .object(["items": items]))]
                : [Reply.failure(request, 7008, "invalidParameter", "Unknown delivery id.")]
        }) { server in
            let result = runWcctl(["receive"], server: server)
            #expect(result.status == 108)
            #expect(result.err == "wcctl: error 7008 (invalidParameter): Unknown delivery id.\n")
        }
    }

    @Test func nothingIsAcknowledgedWhenTheLineCannotBePrinted() throws {
        let items = JSONValue.array([.object(["event": .string("userInfo"), "data": Self.userInfo])])
        let streams = CapturedStreams()
        streams.closeOut()
        try withServer({ request in [Reply.ok(request, .object(["items": items]))] }) { server in
            let result = runWcctl(["receive"], server: server, streams: streams)
            // A reader that went away (`| head`) ends wcctl quietly, and what it did not see stays pending.
            #expect(result.status == 0)
            #expect(result.err == "")
            server.waitUntilFinished()
            #expect(server.requests.count == 1)
        }
    }

    @Test func followPrintsAndAcksUntilTheDaemonGoesAway() throws {
        try withServer({ request in
            switch request[field: "op"] {
            case .string("receive")?:
                return [
                    Reply.ok(request), Reply.event(request, "userInfo", Self.userInfo),
                    Reply.event(request, "message", json(#"{"token":2,"variant":"dictionaryWithReply","message":{"ping":1}}"#)),
                ]
            default:
                // The ack for the userInfo: confirm it, then the daemon stops.
                return [Reply.ok(request), .close]
            }
        }) { server in
            let result = runWcctl(["receive", "--follow", "--reply", #"{"pong":true}"#], server: server)
            #expect(result.status == 3)
            #expect(result.err == "wcctl: phoned closed the control connection (it stopped or crashed)\n")
            #expect(result.out == """
                {"channel":"userInfo","receivedAt":"2024-05-01T12:00:00.000Z","seq":3,"transferId":"T3","userInfo":{"n":3}}
                {"channel":"message","message":{"ping":1},"variant":"dictionaryWithReply"}

                """)
            #expect(server.requests.map(shape) == [
                #"{"autoReply":{"pong":true},"follow":true,"handle":["dictionary","dictionaryWithReply","data"],"op":"receive"}"#,
                #"{"deliveryId":11,"op":"ack"}"#,
            ])
        }
    }

    @Test func followEndsCleanlyOnInterrupt() throws {
        let interrupt = InterruptPipe()
        try withServer({ request in
            switch request[field: "op"] {
            case .string("receive")?: return [Reply.ok(request), Reply.event(request, "applicationContext", Self.context)]
            default: return [Reply.ok(request), .poke(interrupt.writeEnd)]  // Ctrl-C once the ack is confirmed.
            }
        }) { server in
            let result = runWcctl(["receive", "--follow", "--channel", "applicationContext"], server: server, interrupt: interrupt)
            #expect(result.status == 0)
            #expect(result.err.isEmpty)
            #expect(result.out == #"{"channel":"applicationContext","context":{"theme":"dark"},"version":4}"# + "\n")
            #expect(server.requests.map(shape) == [
                #"{"channels":["applicationContext"],"follow":true,"op":"receive"}"#,
                #"{"contextVersion":4,"op":"ack"}"#,
            ])
        }
    }

    @Test func eventsFollowSinceAsksTheDaemonForTheHistoryFromThenOn() throws {
        let interrupt = InterruptPipe()
        let since = "2026-11-23T22:41:07.000000Z"
        let event = json(#"{"event":"userInfoDelivered","message":"userInfo 1 received","messageId":"x","priority":6,"role":"watch","timestamp":"2026-11-23T22:41:08.000000Z"}"#)
        try withServer({ request in
            // Ctrl-C once the history is sent: what matters here is the request.
            [Reply.ok(request, json(#"{"history":1}"#)), Reply.event(request, "diagnostic", event), .poke(interrupt.writeEnd)]
        }) { server in
            let result = runWcctl(["--json", "events", "--follow", "--since", since], server: server, interrupt: interrupt)
            #expect(result.status == 0, "\(result.err)")
            #expect(server.requests.map(shape) == [#"{"follow":true,"op":"events","since":"\#(since)"}"#])
        }
    }

    @Test func followWithoutReplyHandlesNoReplyVariantsAndPrintsDataAsData() throws {
        let interrupt = InterruptPipe()
        try withServer({ request in
            [
                Reply.ok(request), Reply.event(request, "message", json(#"{"token":1,"variant":"data","data":"AAE="}"#)),
                .poke(interrupt.writeEnd),
            ]
        }) { server in
            let result = runWcctl(["receive", "--follow"], server: server, interrupt: interrupt)
            #expect(result.status == 0)
            #expect(server.requests.map(shape) == [#"{"follow":true,"handle":["dictionary","data"],"op":"receive"}"#])
            // The event and the interrupt may race; if the event was read, it is printed as data.
            #expect(result.out.isEmpty || result.out == #"{"channel":"message","data":{"$data":"AAE="},"variant":"data"}"# + "\n")
        }
    }

    @Test func aRejectedReceiveIsTheDaemonsError() throws {
        try withServer({ request in [Reply.failure(request, 7004, "sessionNotActivated", "Not activated.")] }) { server in
            let result = runWcctl(["receive", "--follow"], server: server)
            #expect(result.status == 104)
        }
    }

    @Test func aDataReplyMustBeDataOrADictionary() {
        let result = runWcctl(["receive", "--follow", "--reply", "[1]"], environment: ["WCCTL_CONTROL": "/nonexistent/ctl"])
        #expect(result.status == 108)
        #expect(result.err.hasPrefix("wcctl: error 7008 (invalidParameter): reply: "))
    }

    static let launched = #"{"event":"foregroundLaunch","message":"phoned launched","role":"phone","timestamp":"2026-11-23T22:41:07.000001Z"}"#
    static let sent = #"{"channel":"message","durationUs":1500,"event":"messageSent","message":"message 1 answered","role":"phone","seq":1,"timestamp":"2026-11-23T22:41:08.250000Z"}"#

    /// (arguments, expected stdout) against a daemon holding `launched` and `sent`.
    static let selections: [([String], String)] = [
        (
            ["events"],
            "2026-11-23T22:41:07.000001Z phone foregroundLaunch     phoned launched\n"
                + "2026-11-23T22:41:08.250000Z phone messageSent          message 1 answered  seq=1 took=1.5 ms\n"
        ),
        (["--json", "events", "--event", "messageSent"], sent + "\n"),
        (["--json", "events", "-n", "1"], sent + "\n"),
        (["--json", "events", "--since", "2026-11-23T23:41:08+01:00"], sent + "\n"),
        (["--json", "events", "--channel", "userInfo"], ""),
    ]

    @Test(arguments: selections)
    func eventsPrintTextForPeopleAndSelect(_ arguments: [String], _ expected: String) throws {
        try withServer({ request in [Reply.ok(request, json(#"{"events":[\#(Self.launched),\#(Self.sent)]}"#))] }) { server in
            let result = runWcctl(arguments, server: server)
            #expect(result.status == 0 && result.out == expected, "\(result.out) \(result.err)")
        }
    }

    @Test func aFollowPrintsTheNewestOfTheHistoryThenWhatPasses() throws {
        try withServer({ request in
            [
                Reply.ok(request, json(#"{"history":2}"#)),
                Reply.event(request, "diagnostic", json(Self.launched)), Reply.event(request, "diagnostic", json(Self.sent)),
                Reply.event(request, "diagnostic", json(Self.launched)), Reply.event(request, "diagnostic", json(Self.sent)),
                Reply.event(request, "end", .object([:])),
            ]
        }) { server in
            let result = runWcctl(["--json", "events", "--follow", "-n", "1", "--event", "foregroundLaunch"], server: server)
            #expect(result.status == 3)
            // History: the newest matching one; then the new matching one.
            #expect(result.out == Self.launched + "\n" + Self.launched + "\n")
            #expect(result.err == "wcctl: phoned ended the stream (it is shutting down)\n")
            #expect(server.requests.map(shape) == [#"{"follow":true,"op":"events"}"#])
        }
    }

    @Test func anEventWithoutATimestampIsTheDaemonsFault() throws {
        try withServer({ request in [Reply.ok(request, json(#"{"events":[{"event":"sessionActivated","role":"phone"}]}"#))] }) { server in
            let result = runWcctl(["events"], server: server)
            #expect(result.status == 1)
            #expect(result.err.hasPrefix("wcctl: phoned sent an event without a valid 'timestamp'"))
        }
    }
}
