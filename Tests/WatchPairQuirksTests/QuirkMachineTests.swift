import Testing
import WatchPairQuirks

@Suite("quirk machine")
struct QuirkMachineTests {
    private static func setting(
        probability: Double = 1, count: Int? = nil, seed: UInt64 = 0, delay: ClosedRange<Duration> = .seconds(1) ... .seconds(1)
    ) -> QuirkSetting {
        try! QuirkSetting(probability: probability, count: count, seed: seed, delay: delay)
    }

    /// The injections' ordinals over `opportunities` chances (0 where the quirk did not fire).
    private static func run(_ machine: inout QuirkMachine, _ quirk: Quirk, _ opportunities: Int) -> [Int] {
        (0..<opportunities).map { _ in
            if case .inject(let injection) = machine.event(.opportunity(quirk)) { return injection.ordinal }
            return 0
        }
    }

    @Test("nothing set: empty, and every opportunity is documented behaviour")
    func off() {
        var machine = QuirkMachine()
        #expect(machine.isEmpty)
        for quirk in Quirk.allCases { #expect(machine.event(.opportunity(quirk)) == .none) }
        #expect(machine.statuses.isEmpty, "an opportunity of an unset quirk is not counted")
    }

    @Test("probability 1 fires every time, up to count; a spent quirk stays listed", arguments: [
        // (count, opportunities) → ordinals
        (Int?.none, 3, [1, 2, 3]),
        (2, 4, [1, 2, 0, 0]),
        (1, 2, [1, 0]),
    ])
    func count(count: Int?, opportunities: Int, expected: [Int]) {
        var machine = QuirkMachine([.lostReply: Self.setting(count: count)])
        #expect(Self.run(&machine, .lostReply, opportunities) == expected)
        let status = machine.statuses.first
        #expect(status?.opportunities == opportunities)
        #expect(status?.injections == expected.filter { $0 > 0 }.count)
        #expect(status?.isSpent == (count != nil))
    }

    @Test("probability 0 never fires")
    func never() {
        var machine = QuirkMachine([.duplicateUserInfo: Self.setting(probability: 0)])
        #expect(Self.run(&machine, .duplicateUserInfo, 200).allSatisfy { $0 == 0 })
    }

    @Test("the same seed gives the same injections; another seed other ones")
    func seeded() {
        func draws(_ seed: UInt64) -> [Int] {
            var machine = QuirkMachine([.phantomReachability: Self.setting(probability: 0.5, seed: seed)])
            return Self.run(&machine, .phantomReachability, 64)
        }
        #expect(draws(7) == draws(7))
        #expect(draws(7) != draws(8))
        let fired = draws(7).filter { $0 > 0 }.count
        #expect((16...48).contains(fired), "about half of 64 at probability 0.5, got \(fired)")
    }

    @Test("one quirk's draws do not shift another's")
    func independent() {
        let half = Self.setting(probability: 0.5, seed: 3)
        var alone = QuirkMachine([.lateReply: half])
        var both = QuirkMachine([.lateReply: half, .lostReply: half])
        var withOther: [Int] = []
        for _ in 0..<32 {
            _ = both.event(.opportunity(.lostReply))
            withOther += Self.run(&both, .lateReply, 1)
        }
        #expect(Self.run(&alone, .lateReply, 32) == withOther)
    }

    @Test("set again restarts the draws and the count; clear turns off one or all")
    func setAndClear() {
        var machine = QuirkMachine([.lostReply: Self.setting(count: 1), .lateReply: .always])
        #expect(Self.run(&machine, .lostReply, 2) == [1, 0])
        _ = machine.event(.set(.lostReply, Self.setting(count: 1)))
        #expect(Self.run(&machine, .lostReply, 1) == [1])
        _ = machine.event(.clear(.lostReply))
        #expect(!machine.isSet(.lostReply) && machine.isSet(.lateReply))
        #expect(machine.event(.opportunity(.lostReply)) == .none)
        _ = machine.event(.clear(nil))
        #expect(machine.isEmpty)
    }

    @Test("delays are drawn within the range, and a single value is that value")
    func delays() {
        var machine = QuirkMachine([
            .delayedDelivery: Self.setting(seed: 1, delay: .milliseconds(500) ... .seconds(2)),
            .installedFlapping: Self.setting(delay: .seconds(3) ... .seconds(3)),
        ])
        var drawn: Set<Duration> = []
        for _ in 0..<50 {
            guard case .inject(let injection) = machine.event(.opportunity(.delayedDelivery)) else {
                Issue.record("probability 1 must fire")
                return
            }
            #expect((Duration.milliseconds(500) ... .seconds(2)).contains(injection.delay))
            drawn.insert(injection.delay)
        }
        #expect(drawn.count > 40, "delays are drawn, not fixed")
        #expect(machine.event(.opportunity(.installedFlapping)) == .inject(.init(quirk: .installedFlapping, ordinal: 1, delay: .seconds(3))))
    }
}
