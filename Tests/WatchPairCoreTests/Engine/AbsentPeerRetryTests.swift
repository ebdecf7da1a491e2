import Foundation
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// A phone whose watch is off (nothing listens at its link endpoint) and whose app keeps transferring:
/// the driver's failed attempt waits for the watch to appear, not for the next transfer.
@Suite("a peer that is not there is not tried per transfer", .timeLimit(.minutes(3)))
struct AbsentPeerRetryTests {
    @Test("the watch off: one failed attempt for six transfers; the watch appearing ends the wait and all six arrive in order")
    func oneAttemptWhileTheWatchIsOff() async throws {
        let clock = ManualClock()
        let pair = try EnginePair(.inMemory, clock: clock)
        let counter = TransportCounter()
        let phone = try await pair.start(.phone, transport: CountingTransport(wrapping: pair.network.transport(for: .phone), counter: counter))
        var accepted: [UUID] = []
        for n in 0..<6 {
            // Each one is new content, which used to end the backoff wait: an attempt (and a probe) each.
            accepted.append(try await phone.transferUserInfo(["n": .integer(Int64(n))]).transferId)
        }
        // The clock never moves here, so no backoff delay ends the driver's wait: only the watch appearing.
        let watch = try await pair.start(.watch)
        try await until("six transfers delivered", on: watch.appSignal) { ((try? await watch.pendingUserInfo()) ?? []).count >= 6 }
        #expect(try await watch.pendingUserInfo().map(\.transferId) == accepted)
        #expect(counter.connects == 2, "one failed attempt while the watch was off, one that linked")
        await pair.tearDown()
    }
}
