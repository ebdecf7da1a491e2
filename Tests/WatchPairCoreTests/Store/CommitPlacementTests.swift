import Testing
@testable import WatchPairCore

/// ``CommitPlacement``: only a commit that fsyncs leaves the caller's thread.
@Suite("Store: where a commit runs")
struct CommitPlacementTests {
    @Test(
        "a commit runs on the caller's thread unless it fsyncs",
        arguments: [
            (StoreDatabase.CommitSync.durable, Durability.power, CommitPlacement.writerQueue),
            (.durable, .process, .caller),
            (.relaxed, .power, .caller),
            (.relaxed, .process, .caller),
        ] as [(StoreDatabase.CommitSync, Durability, CommitPlacement)])
    func placement(_ sync: StoreDatabase.CommitSync, _ durability: Durability, _ expected: CommitPlacement) {
        #expect(CommitPlacement.of(sync, durability: durability) == expected)
    }
}
