import Foundation
import Synchronization
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
        let counting = ConnectCountingTransport(wrapping: pair.network.transport(for: .phone))
        let phone = try await pair.start(.phone, transport: counting)
        var accepted: [UUID] = []
        for n in 0..<6 {
            // Each one is new content, which used to end the backoff wait: an attempt (and a probe) each.
            accepted.append(try await phone.transferUserInfo(["n": .integer(Int64(n))]).transferId)
        }
        // The clock never moves here, so no backoff delay ends the driver's wait: only the watch appearing.
        let watch = try await pair.start(.watch)
        try await until("six transfers delivered", on: watch.appSignal) { ((try? await watch.pendingUserInfo()) ?? []).count >= 6 }
        #expect(try await watch.pendingUserInfo().map(\.transferId) == accepted)
        #expect(counting.connects == 2, "one failed attempt while the watch was off, one that linked")
        await pair.tearDown()
    }
}

/// Forwards to a transport and counts `connect()` calls.
private final class ConnectCountingTransport: Transport, Sendable {
    private let base: any Transport
    private let count = Mutex(0)

    init(wrapping base: any Transport) { self.base = base }

    var connects: Int { count.withLock { $0 } }

    func serve(_ handler: @escaping @Sendable (any TransportConnection) async -> Void) async throws { try await base.serve(handler) }
    func connect() async throws -> any TransportConnection {
        count.withLock { $0 += 1 }
        return try await base.connect()
    }
    func peerPresence() async -> PeerPresence { await base.peerPresence() }
    func peerAnswers() async -> Bool { await base.peerAnswers() }
    func peerChanges() -> AsyncStream<Void> { base.peerChanges() }
    func announceContentPending(_ pending: Bool) async { await base.announceContentPending(pending) }
    func publishInstallation(_ installation: AppInstallation) async throws { try await base.publishInstallation(installation) }
    func installation() async -> AppInstallation { await base.installation() }
}
