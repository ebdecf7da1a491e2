import Testing
import WatchPairCore
import WatchPairWire

@testable import WatchConnectivity

/// The incoming message's answer as tables: one event per line, the action it must return.
@Suite("machine: reply to an incoming message")
struct ReplyMachineTests {
    static let reply = ReplyMachine.Outcome.success(.dictionary(["ok": .bool(true)]))
    static let withReply = ReplyMachine.Event.callbackReturned(handled: true, wantsReply: true, callback: "didReceiveMessage")

    /// Feeds `steps` in order, checking each action; returns the machine.
    @discardableResult
    static func run(_ steps: [(ReplyMachine.Event, ReplyMachine.Action)], sourceLocation: SourceLocation = #_sourceLocation) -> ReplyMachine {
        var machine = ReplyMachine()
        for (index, (event, expected)) in steps.enumerated() {
            let action = machine.event(event)
            #expect(action == expected, "step \(index): \(event)", sourceLocation: sourceLocation)
        }
        return machine
    }

    static func code(_ action: ReplyMachine.Action) -> WCErrorCode? {
        guard case .answer(.failure(let failure)) = action else { return nil }
        return failure.code
    }

    @Test("a reply inside the callback answers at once; no timer starts, a second reply is ignored")
    func replyInsideCallback() {
        let machine = Self.run([
            (.replied(Self.reply), .answer(Self.reply)),
            (Self.withReply, .none),
            (.replied(.success(.dictionary(["again": .bool(true)]))), .none),
            (.cancelled, .none),
        ])
        #expect(machine.state == .answered)
    }

    @Test("a callback that keeps replyHandler starts the timer; the later reply answers, once")
    func replyAfterCallback() {
        Self.run([
            (Self.withReply, .startTimer),
            (.replied(Self.reply), .answer(Self.reply)),
            (.timedOut(.seconds(10)), .none),
            (.replied(Self.reply), .none),
        ])
    }

    @Test("no reply within the timeout is 7012; a reply after it is ignored")
    func timeout() {
        var machine = ReplyMachine()
        #expect(machine.event(Self.withReply) == .startTimer)
        #expect(Self.code(machine.event(.timedOut(.seconds(10)))) == .messageReplyTimedOut)
        #expect(machine.event(.replied(Self.reply)) == .none)
    }

    @Test("a callback the app does not implement is 7014; without a reply wanted, its return is the answer")
    func callbackReturns() {
        var missing = ReplyMachine()
        #expect(Self.code(missing.event(.callbackReturned(handled: false, wantsReply: true, callback: "x"))) == .deliveryFailed)
        var missingNoReply = ReplyMachine()
        #expect(Self.code(missingNoReply.event(.callbackReturned(handled: false, wantsReply: false, callback: "x"))) == .deliveryFailed)
        Self.run([(.callbackReturned(handled: true, wantsReply: false, callback: "x"), .answer(.success(nil))), (.cancelled, .none)])
    }

    @Test("the session stopping answers 7014 while delivering or waiting, and nothing after")
    func cancelled() {
        var delivering = ReplyMachine()
        #expect(Self.code(delivering.event(.cancelled)) == .deliveryFailed)
        #expect(delivering.event(Self.withReply) == .none, "the callback's return after the stop changes nothing")
        var waiting = ReplyMachine()
        #expect(waiting.event(Self.withReply) == .startTimer)
        #expect(Self.code(waiting.event(.cancelled)) == .deliveryFailed)
        #expect(waiting.event(.replied(Self.reply)) == .none)
    }

    @Test("a reply that is not a property list reaches the sender as the app's 7011")
    func badReply() {
        let failure = ReplyMachine.Outcome.failure(WCFailure(.messageReplyFailed, "not a property list"))
        Self.run([(Self.withReply, .startTimer), (.replied(failure), .answer(failure))])
    }

    @Test("no timer is running while delivering, so a stray timeout then changes nothing")
    func strayTimeout() {
        Self.run([(.timedOut(.seconds(1)), .none), (.replied(Self.reply), .answer(Self.reply))])
    }
}
