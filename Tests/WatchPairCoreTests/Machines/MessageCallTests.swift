import Testing
@testable import WatchPairCore
import WatchPairWire

/// The message call machine as tables: one event per line, the action it must return.
@Suite("machine: message call")
struct MessageCallTests {
    static let reply = MessageBody.dictionary(["ok": .bool(true)])

    /// Feeds `steps` in order, checking each action; returns the machine.
    @discardableResult
    static func run(_ steps: [(MessageCall.Event, MessageCall.Action)], sourceLocation: SourceLocation = #_sourceLocation) -> MessageCall {
        var call = MessageCall()
        for (index, (event, expected)) in steps.enumerated() {
            let action = call.event(event)
            #expect(action == expected, "step \(index): \(event)", sourceLocation: sourceLocation)
        }
        return call
    }

    static func code(_ action: MessageCall.Action) -> WCErrorCode? {
        guard case .complete(.failure(let failure)) = action else { return nil }
        return failure.code
    }

    @Test("a reply ends the call; a later error, deadline or close changes nothing")
    func replyOnce() {
        let call = Self.run([
            (.linkReady(linkId: 1), .send(linkId: 1)),
            (.answered(.success(Self.reply)), .complete(.success(Self.reply))),
            (.answered(.failure(WCFailure(.genericError, "late"))), .none),
            (.deadline(.seconds(3)), .none),
            (.linkClosed(linkId: 1), .none),
            (.cancelled, .none),
        ])
        #expect(call.state == .finished)
    }

    @Test("the deadline while linking is 7007, after sending 7012; exactly once")
    func deadlines() {
        var linking = MessageCall()
        #expect(Self.code(linking.event(.deadline(.seconds(3)))) == .notReachable)
        #expect(linking.event(.linkReady(linkId: 1)) == .none, "a link found after the deadline is not used")
        #expect(linking.event(.linkUnavailable(WCFailure(.notReachable, "x"))) == .none)

        var sent = MessageCall()
        #expect(sent.event(.linkReady(linkId: 4)) == .send(linkId: 4))
        #expect(Self.code(sent.event(.deadline(.seconds(10)))) == .messageReplyTimedOut)
        #expect(sent.event(.answered(.success(Self.reply))) == .none, "a late reply is ignored")
    }

    @Test("losing the link it was sent on is 7014; another link's loss is not")
    func linkLoss() {
        var call = MessageCall()
        #expect(call.event(.linkReady(linkId: 2)) == .send(linkId: 2))
        #expect(call.event(.linkClosed(linkId: 1)) == .none)
        #expect(Self.code(call.event(.linkClosed(linkId: 2))) == .deliveryFailed)
    }

    @Test("failures to link or to write end the call with 7007; the peer's error frame is passed on")
    func failures() {
        var unavailable = MessageCall()
        #expect(Self.code(unavailable.event(.linkUnavailable(WCFailure(.notReachable, "not running")))) == .notReachable)
        var writeFailed = MessageCall()
        _ = writeFailed.event(.linkReady(linkId: 1))
        #expect(Self.code(writeFailed.event(.sendFailed("closed"))) == .notReachable)
        var refused = MessageCall()
        _ = refused.event(.linkReady(linkId: 1))
        #expect(Self.code(refused.event(.answered(.failure(WCFailure(.deliveryFailed, "no handler"))))) == .deliveryFailed)
        var cancelled = MessageCall()
        #expect(Self.code(cancelled.event(.cancelled)) == .deliveryFailed)
    }

    @Test("link set-up is bounded by the shorter of the handshake and message timeouts", arguments: [
        (Duration.seconds(3), Duration.seconds(5), Duration.seconds(3)),
        (.seconds(8), .seconds(5), .seconds(5)),
        (.seconds(10), .seconds(10), .seconds(10)),
    ])
    func linkDeadline(timeout: Duration, handshake: Duration, expected: Duration) {
        let deadlines = MessageCall.Deadlines(timeout: timeout, handshakeTimeout: handshake)
        #expect(deadlines.link == expected)
        #expect(deadlines.reply == timeout)
    }

    @Test("wake rules: the watch may launch the phone; the phone never launches the watch")
    func wakeRules() {
        let absent = PeerPresence(listening: false, running: false)
        let installed = PeerPresence(listening: true, running: false)
        let running = PeerPresence(listening: true, running: true)
        #expect(MessageWakeRule.mayConnect(role: .watch, peer: installed) == nil)
        #expect(MessageWakeRule.mayConnect(role: .watch, peer: absent)?.code == .notReachable)
        #expect(MessageWakeRule.mayConnect(role: .phone, peer: installed)?.code == .notReachable)
        #expect(MessageWakeRule.mayConnect(role: .phone, peer: running) == nil)
        #expect(MessageWakeRule.mayUse(role: .phone, peerLaunch: .background)?.code == .notReachable)
        #expect(MessageWakeRule.mayUse(role: .phone, peerLaunch: .foreground) == nil)
        #expect(MessageWakeRule.mayUse(role: .watch, peerLaunch: .background) == nil)
    }
}

/// The receiving side's answer as a table: message, the app's result, the frame sent back.
@Suite("machine: message answer")
struct MessageAnswerTests {
    static let limits = PayloadLimits(message: 64)
    static func message(_ body: MessageBody, reply: Bool) -> IncomingMessage {
        IncomingMessage(id: 9, body: body, wantsReply: reply)
    }

    @Test("replies keep the message's kind and limit; errors pass through")
    func answers() {
        let dictionary = MessageBody.dictionary(["a": .integer(1)])
        let data = MessageBody.data(.init([1, 2]))
        let big = MessageBody.data(.init(repeating: 0, count: 65))
        let rows: [(IncomingMessage, Result<MessageBody?, WCFailure>, Frame)] = [
            (Self.message(dictionary, reply: false), .success(nil), .reply(id: 9, body: .dictionary([:]))),
            (Self.message(dictionary, reply: true), .success(dictionary), .reply(id: 9, body: dictionary)),
            (Self.message(dictionary, reply: true), .success(nil), .reply(id: 9, body: .dictionary([:]))),
            (Self.message(data, reply: true), .success(nil), .reply(id: 9, body: .data(.init()))),
            (Self.message(data, reply: true), .success(dictionary),
             .error(relatesTo: 9, code: .messageReplyFailed, reason: "the reply's kind does not match the message's")),
            (Self.message(data, reply: true), .success(big),
             .error(relatesTo: 9, code: .messageReplyFailed, reason: "reply refused: message payload is 65 bytes; the limit is 64")),
            (Self.message(dictionary, reply: true), .failure(WCFailure(.deliveryFailed, "no handler")),
             .error(relatesTo: 9, code: .deliveryFailed, reason: "no handler")),
        ]
        for (index, (message, result, expected)) in rows.enumerated() {
            #expect(MessageAnswer.frame(for: message, result: result, limits: Self.limits) == expected, "row \(index)")
        }
    }
}
