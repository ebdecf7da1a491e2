import Testing
import WatchPairCore

/// The reconnect schedule as a pure table: no clock, no sockets.
@Suite("reconnect state machine")
struct ReconnectStateMachineTests {
    static let policy = BackoffPolicy(initial: .milliseconds(100), multiplier: 2, maximum: .seconds(5), giveUpAfter: .seconds(10))

    @Test("full-jitter delay ceilings grow ×2 from 100 ms and cap at 5 s", arguments: [
        (0, Duration.milliseconds(100)), (1, .milliseconds(200)), (2, .milliseconds(400)),
        (5, .milliseconds(3200)), (6, .seconds(5)), (40, .seconds(5)),
    ])
    func ceilings(attempt: Int, expected: Duration) {
        #expect(abs((Self.policy.ceiling(attempt: attempt) - expected).seconds) < 1e-9)
    }

    @Test("jitter scales the ceiling", arguments: [0.0, 0.25, 0.999])
    func jitter(unit: Double) {
        let delay = Self.policy.delay(attempt: 3, unit: unit)
        #expect(abs(delay.seconds - 0.8 * unit) < 1e-9)
    }

    @Test("failures back off, then give up once the waits add up to giveUpAfter")
    func givesUp() {
        var machine = ReconnectStateMachine(policy: Self.policy)
        var waited: Duration = .zero
        var actions: [ReconnectStateMachine.Action] = []
        while true {
            let action = machine.attemptFailed(jitter: 0.999_999)
            actions.append(action)
            guard case .retry(let delay) = action else { break }
            waited += delay
        }
        #expect(actions.last == .giveUp)
        #expect(machine.isTimedOut)
        #expect(abs((waited - Self.policy.giveUpAfter).seconds) < 1e-3)
        // Still timed out until something changes.
        #expect(machine.attemptFailed(jitter: 0.5) == .giveUp)
        machine.reset()
        #expect(machine.state == .idle)
        #expect(machine.attemptFailed(jitter: 1) == .retry(after: .milliseconds(100)))
    }

    @Test("a success resets the attempt counter")
    func resetOnSuccess() {
        var machine = ReconnectStateMachine(policy: Self.policy)
        _ = machine.attemptFailed(jitter: 1)
        _ = machine.attemptFailed(jitter: 1)
        #expect(machine.state == .backingOff(attempt: 2, failingFor: .milliseconds(300)))
        machine.reset()
        #expect(machine.attemptFailed(jitter: 1) == .retry(after: .milliseconds(100)))
    }
}

/// Size limits per channel.
@Suite("payload limits")
struct PayloadLimitsTests {
    @Test("limits are checked on the encoded size")
    func limits() throws {
        let limits = PayloadLimits(message: 100, userInfo: 100, applicationContext: 200)
        try limits.check(.data(.init(count: 100)))
        #expect(throws: WCFailure(.payloadTooLarge, "message payload is 101 bytes; the limit is 100")) {
            try limits.check(.data(.init(count: 101)))
        }
        let small: PlistDictionary = ["k": .string("v")]
        try limits.checkUserInfo(small)
        let big: PlistDictionary = ["k": .string(String(repeating: "x", count: 150))]
        #expect(throws: WCFailure.self) { try limits.checkUserInfo(big) }
        try limits.checkContext(big)
    }

    @Test("message variants", arguments: [
        (MessageBody.dictionary([:]), false, MessageVariant.dictionary),
        (.dictionary([:]), true, .dictionaryWithReply),
        (.data(.init()), false, .data),
        (.data(.init()), true, .dataWithReply),
    ])
    func variants(body: MessageBody, wantsReply: Bool, expected: MessageVariant) {
        #expect(MessageVariant(body: body, wantsReply: wantsReply) == expected)
        #expect(expected.wantsReply == wantsReply)
    }
}

import WatchPairWire
