import Testing

@testable import WatchPairHost

@Suite("StatusPacing: when STATUS= is sent")
struct StatusPacingTests {
    /// One read of the line: what is read, when, and what the machine says.
    struct Step: CustomTestStringConvertible {
        let line: String
        let at: Duration
        let expected: StatusPacing.Action
        var testDescription: String { "\(line) at \(at) → \(expected)" }
    }

    static func step(_ line: String, _ seconds: Double, _ expected: StatusPacing.Action) -> Step {
        Step(line: line, at: .seconds(seconds), expected: expected)
    }

    @Test(
        "each sequence of reads gives these actions (minimum interval 1 s, READY=1 sent \"a\")",
        arguments: [
            // The first change goes at once; the READY=1 line does not count as a send.
            [step("a", 0, .nothing), step("b", 0, .send)],
            // A change inside the interval waits for its end, then goes.
            [step("b", 0, .send), step("c", 0.2, .readAgain(at: .seconds(1))), step("d", 1, .send)],
            // Many changes inside the interval: one send at its end, with the line then current.
            [step("b", 0.5, .send), step("c", 0.6, .readAgain(at: .seconds(1.5))), step("e", 1.5, .send)],
            // Back to what systemd has: nothing to send, now or after the interval.
            [step("b", 0, .send), step("c", 0.1, .readAgain(at: .seconds(1))), step("b", 1, .nothing)],
            // After a quiet interval a change goes at once again.
            [step("b", 0, .send), step("c", 3, .send), step("c", 3.1, .nothing), step("d", 4, .send)],
            // Exactly at the interval's end is not too soon.
            [step("b", 2, .send), step("c", 3, .send)],
        ])
    func sequences(_ steps: [Step]) {
        var pacing = StatusPacing(minimumInterval: .seconds(1), initial: "a")
        for step in steps {
            #expect(pacing.event(read: step.line, at: step.at) == step.expected, "\(step.testDescription)")
        }
    }

    @Test("what systemd has moves only with a send")
    func sentFollowsSends() {
        var pacing = StatusPacing(minimumInterval: .seconds(1), initial: "a")
        _ = pacing.event(read: "b", at: .seconds(0))
        _ = pacing.event(read: "c", at: .seconds(0.5))
        #expect(pacing.sent == "b")
        #expect(pacing.sentAt == .seconds(0))
        _ = pacing.event(read: "c", at: .seconds(1))
        #expect(pacing.sent == "c")
        #expect(pacing.sentAt == .seconds(1))
    }
}
