import KeyedSync
import Testing

@Suite("keyed sync: retrying an unconfirmed push")
struct PushRetryTests {
    typealias Step = (event: PushRetry.Event, action: PushRetry.Action)

    /// Runs `steps` on a fresh machine (2 s doubling up to 10 s) and checks each action.
    static func run(_ steps: [Step], sourceLocation: SourceLocation = #_sourceLocation) {
        var machine = PushRetry(initial: .seconds(2), maximum: .seconds(10))
        for (index, step) in steps.enumerated() {
            #expect(machine.event(step.event) == step.action, "step \(index): \(step.event)", sourceLocation: sourceLocation)
        }
    }

    @Test("while the peer stays reachable, each failure waits twice as long, up to the maximum")
    func backoff() {
        Self.run([
            (.reachability(true), .none),
            (.unconfirmed, .schedule(.seconds(2))),
            (.timerFired, .push),
            (.unconfirmed, .schedule(.seconds(4))),
            (.timerFired, .push),
            (.unconfirmed, .schedule(.seconds(8))),
            (.timerFired, .push),
            (.unconfirmed, .schedule(.seconds(10))),
            (.timerFired, .push),
            (.unconfirmed, .schedule(.seconds(10))),
        ])
    }

    @Test("a confirmation disarms the timer and starts the next series from the first delay")
    func confirmation() {
        Self.run([
            (.reachability(true), .none),
            (.unconfirmed, .schedule(.seconds(2))),
            (.timerFired, .push),
            (.unconfirmed, .schedule(.seconds(4))),
            (.confirmed, .cancel),
            (.timerFired, .none),
            (.unconfirmed, .schedule(.seconds(2))),
            (.timerFired, .push),
            (.confirmed, .none),
        ])
    }

    @Test("an unreachable peer arms nothing: its return pushes by itself")
    func unreachable() {
        Self.run([
            (.unconfirmed, .none),
            (.reachability(true), .none),
            (.unconfirmed, .schedule(.seconds(2))),
            (.reachability(false), .cancel),
            (.timerFired, .none),
            (.unconfirmed, .none),
            (.reachability(true), .none),
            (.unconfirmed, .schedule(.seconds(2))),
        ])
    }

    @Test("one timer at a time: a second failure while armed changes nothing")
    func oneTimer() {
        Self.run([
            (.reachability(true), .none),
            (.unconfirmed, .schedule(.seconds(2))),
            (.unconfirmed, .none),
            (.timerFired, .push),
            (.timerFired, .none),
            (.unconfirmed, .schedule(.seconds(4))),
        ])
    }
}
