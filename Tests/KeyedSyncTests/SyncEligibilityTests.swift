import KeyedSync
import Testing

@Suite("keyed sync: eligibility")
struct SyncEligibilityTests {
    static let limit = 100

    /// Every availability × policy × side × size at the limit's edges.
    static let cases: [(SyncAvailability, SyncPolicy, SyncSide, Int)] = SyncAvailability.allCases.flatMap { availability in
        SyncPolicy.allCases.flatMap { policy in
            SyncSide.allCases.flatMap { side in [0, limit - 1, limit, limit + 1].map { (availability, policy, side, $0) } }
        }
    }

    /// The rule of docs/KeyedSync.md as a table: which apps send a key of each availability.
    static let senders: [SyncAvailability: Set<SyncSide>] = [
        .all: [.phone, .watch], .phoneWithWatchSync: [.phone], .phoneOnly: [], .watchOnly: [],
    ]

    @Test("every availability × policy × side × size edge", arguments: cases)
    func matrix(availability: SyncAvailability, policy: SyncPolicy, side: SyncSide, size: Int) {
        let decision = SyncEligibility.of(
            SyncKeyOptions(availability: availability, policy: policy), on: side, size: size, maxAutoSyncSize: Self.limit)
        let sends = Self.senders[availability]!.contains(side)
        switch (sends, policy) {
        case (false, _): #expect(!decision.isSendable)
        case (true, .never): #expect(decision == .ineligible(.policyNever))
        case (true, .manual): #expect(decision == .onRequest, "manual keys go at any size, when asked")
        case (true, .automaticSmall):
            #expect(decision == (size <= Self.limit ? .automatic : .ineligible(.tooLarge(size: size, limit: Self.limit))))
        }
    }

    @Test("why a key that stays in its app is not sent")
    func reasons() {
        let of = { (availability: SyncAvailability, side: SyncSide) in
            SyncEligibility.of(SyncKeyOptions(availability: availability, policy: .automaticSmall), on: side, size: 1, maxAutoSyncSize: 10)
        }
        #expect(of(.phoneOnly, .phone) == .ineligible(.notShared(.phoneOnly)))
        #expect(of(.watchOnly, .watch) == .ineligible(.notShared(.watchOnly)))
        #expect(of(.phoneWithWatchSync, .watch) == .ineligible(.phoneOwned))
        #expect(of(.phoneWithWatchSync, .phone) == .automatic)
        #expect(SyncBlock.tooLarge(size: 20, limit: 10).description == "too large for automaticSmall: 20 > 10 bytes")
    }

    @Test("revisions order by counter, then the phone's last", arguments: [
        (SyncRevision(counter: 1, writer: .phone), SyncRevision(counter: 2, writer: .watch), true),
        (SyncRevision(counter: 2, writer: .watch), SyncRevision(counter: 1, writer: .phone), false),
        (SyncRevision(counter: 3, writer: .watch), SyncRevision(counter: 3, writer: .phone), true),
        (SyncRevision(counter: 3, writer: .phone), SyncRevision(counter: 3, writer: .watch), false),
        (SyncRevision(counter: 3, writer: .phone), SyncRevision(counter: 3, writer: .phone), false),
    ])
    func revisionOrder(lower: SyncRevision, higher: SyncRevision, ordered: Bool) {
        #expect((lower < higher) == ordered)
    }
}
