import Testing
import WatchPairTesting

/// The self-driving clock's rule, one pass per line: what it sees before and after the barrier, and
/// what it does.
@Suite("IdleRule")
struct IdleRuleTests {
    /// An observation: quiet network, no held write, a sleeper, nothing moved (generation 0).
    static func seen(
        clock: UInt64 = 0, version: UInt64 = 0, network: UInt64 = 0, quiet: Bool = true, held: Bool = false, sleepers: Bool = true
    ) -> IdleObservation {
        IdleObservation(
            clockActivity: clock, clockVersion: version, networkActivity: network, networkQuiet: quiet, writesHeld: held,
            hasSleepers: sleepers)
    }

    typealias Step = (before: IdleObservation, after: IdleObservation, action: IdleRule.Action)

    static let idle: Step = (seen(), seen(), .lookAgain)

    @Test("three quiet passes in a row, then advance to the next deadline if the clock is unchanged")
    func advancesAfterThreeQuietPasses() {
        var rule = IdleRule()
        #expect(rule.pass(before: Self.seen(version: 7), after: Self.seen(version: 7)) == .lookAgain)
        #expect(rule.pass(before: Self.seen(version: 7), after: Self.seen(version: 7)) == .lookAgain)
        #expect(rule.pass(before: Self.seen(version: 7), after: Self.seen(version: 7)) == .advance(ifVersion: 7))
        #expect(rule.quietPasses == 0, "counting starts again after an advance")
    }

    @Test("anything that moves during a pass starts the count again", arguments: [
        (seen(), seen(clock: 1)), (seen(), seen(version: 1)), (seen(), seen(network: 1)),
    ])
    func movementResets(before: IdleObservation, after: IdleObservation) {
        var rule = IdleRule()
        #expect(rule.pass(before: Self.seen(), after: Self.seen()) == .lookAgain)
        #expect(rule.pass(before: Self.seen(), after: Self.seen()) == .lookAgain)
        #expect(rule.pass(before: before, after: after) == .lookAgain)
        #expect(rule.quietPasses == 0)
        for _ in 1..<IdleRule.quietPassesNeeded { #expect(rule.pass(before: after, after: after) == .lookAgain) }
        #expect(rule.pass(before: after, after: after) == .advance(ifVersion: after.clockVersion))
    }

    @Test("a busy network that does not move is waited on, never advanced past", arguments: [
        (seen(quiet: false), seen(quiet: false)), (seen(quiet: true), seen(quiet: false)), (seen(quiet: false), seen(quiet: true)),
    ])
    func busyNetworkWaits(before: IdleObservation, after: IdleObservation) {
        var rule = IdleRule()
        for _ in 0..<10 { #expect(rule.pass(before: before, after: after) == .waitForActivity) }
        #expect(rule.quietPasses == 0)
    }

    @Test("a busy network behind a write held on the clock counts as quiet: only time frees it")
    func heldWriteLetsTimeMove() {
        var rule = IdleRule()
        let held = Self.seen(quiet: false, held: true)
        #expect(rule.pass(before: held, after: held) == .lookAgain)
        #expect(rule.pass(before: held, after: held) == .lookAgain)
        #expect(rule.pass(before: held, after: held) == .advance(ifVersion: 0))
    }

    @Test("quiet with nobody sleeping: nothing to advance to, so wait for activity")
    func nothingToAdvanceTo() {
        var rule = IdleRule()
        let empty = Self.seen(sleepers: false)
        #expect(rule.pass(before: empty, after: empty) == .lookAgain)
        #expect(rule.pass(before: empty, after: empty) == .lookAgain)
        #expect(rule.pass(before: empty, after: empty) == .waitForActivity)
    }
}
