import Foundation
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// The link policy on the manual clock: a hung peer is detected by keep-alives, and a peer that stays
/// away makes the link report "disconnected: timed out" while content stays queued, until its socket
/// appears again.
@Suite("link policy", .timeLimit(.minutes(3)))
struct LinkPolicyTests {
    @Test("a peer that completes the handshake and then hangs is detected by keep-alives")
    func hungPeer() async throws {
        let clock = ManualClock()
        let pair = try EnginePair(.inMemory, clock: clock) {
            $0.keepAlive = KeepAlivePolicy(interval: .seconds(1), timeout: .seconds(3))
            $0.handshakeTimeout = .seconds(60)
        }
        let watch = try await pair.start(.watch)
        let events = watch.diagnostics.subscribe()
        // A "phone" that says hello and then never sends another byte (like a SIGSTOPped process).
        let connection = try await pair.network.transport(for: .phone).connect()
        let hello = Hello(
            role: .phone, pairId: "default", storeId: UUID(), launch: .foreground,
            resume: ResumeState(peerStoreId: nil, lastUserInfoSeq: 0, contextVersion: 0)
        )
        try await connection.write(FrameEncoder.encode(.hello(hello)))
        _ = try await events.first(.peerConnected)
        let start = clock.now
        // Record the manual time at which the engine gives up on the silent peer.
        let closedAt = Recorded<ManualClock.Instant>()
        let watcher = Task {
            for await event in events where event.kind == .peerUnresponsive {
                closedAt.set(clock.now, duration: event.duration)
                return
            }
        }
        // Move time a second at a time, each step once the engine is idle again (asleep on the clock)
        // or has closed the link.
        var steps = 0
        while closedAt.value == nil {
            try #require(steps < 10, "a silent peer was never detected")
            let seen = closedAt.signal.generation
            guard closedAt.value == nil else { break }
            await clock.waitForSleeper(orSignal: closedAt.signal, after: seen)
            guard closedAt.value == nil else { break }
            clock.advance(by: .seconds(1))
            steps += 1
        }
        _ = await watcher.value
        let elapsed = try #require(closedAt.value).offset - start.offset
        // The keep-alive ticks every second from the handshake: silence is noticed at 3 s, or at 4 s
        // when the handshake fell between two ticks; never earlier.
        #expect(elapsed >= .seconds(3) && elapsed <= .seconds(4), "closed after \(elapsed) of silence")
        #expect(closedAt.duration == .seconds(3))
        _ = try await events.first(.peerDisconnected)
        await pair.tearDown()
    }

    /// The watch app's control socket appearing is what tells the phone it runs; probed the instant it
    /// appears, it must already listen (it once did not, and the phone missed the watch for good).
    @Test("a foreground phone links to a watch app started after it", arguments: 0..<20)
    func linksToLaterWatch(_ attempt: Int) async throws {
        let pair = try EnginePair(.unixSocket)
        let phone = try await pair.start(.phone)
        try await pair.start(.watch)
        try await until("phone sees the watch", on: phone.stateSignal) { await phone.isReachable }
        await pair.tearDown()
    }

    @Test("a peer that stays away times the link out; its socket appearing retries at once")
    func givesUpThenRetriesOnAppearance() async throws {
        let clock = ManualClock()
        let pair = try EnginePair(.inMemory, clock: clock) {
            $0.backoff = BackoffPolicy(initial: .milliseconds(100), multiplier: 2, maximum: .milliseconds(400), giveUpAfter: .seconds(2))
        }
        let phone = try await pair.start(.phone)
        let events = phone.diagnostics.subscribe()
        let transfer = try await phone.transferUserInfo(["queued": .bool(true)])
        // Each failed attempt sleeps on the manual clock; move time on until the engine gives up.
        var rounds = 0
        while true {
            let seen = phone.stateSignal.generation
            if await phone.status().link == "disconnected: timed out" { break }
            // The engine either sleeps before its next attempt or gives up (and says so on stateSignal).
            await clock.waitForSleeper(orSignal: phone.stateSignal, after: seen)
            if await phone.status().link == "disconnected: timed out" { break }
            clock.advance(by: .milliseconds(400))
            rounds += 1
            try #require(rounds < 100, "never gave up")
        }
        let gaveUp = try await events.first(.peerUnavailable)
        #expect(gaveUp.errorCode == .notReachable)
        #expect(try await phone.outstandingUserInfoTransfers().map(\.transferId) == [transfer.transferId])

        // No clock movement from here on: the watch starting is what triggers delivery.
        let watch = try await pair.start(.watch, launch: .background)
        try await until("delivered after the peer appeared", on: watch.appSignal) {
            ((try? await watch.pendingUserInfo()) ?? []).map(\.transferId) == [transfer.transferId]
        }
        await pair.tearDown()
    }
}

extension ManualClock {
    /// Returns once something sleeps on this clock, or `signal` fires after `seen`: whichever comes first.
    func waitForSleeper(orSignal signal: AsyncSignal, after seen: UInt64) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForSleepers(count: 1) }
            group.addTask { await signal.wait(after: seen) }
            await group.next()
            group.cancelAll()
        }
    }
}

/// A value set once by another task, with a signal for waiting on it.
final class Recorded<Value: Sendable>: Sendable {
    private let state = Mutex<(Value?, Duration?)>((nil, nil))
    let signal = AsyncSignal()
    func set(_ value: Value, duration: Duration?) {
        state.withLock { $0 = (value, duration) }
        signal.fire()
    }
    var value: Value? { state.withLock { $0.0 } }
    var duration: Duration? { state.withLock { $0.1 } }
}

import Synchronization
