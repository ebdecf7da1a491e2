import Foundation
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// A receiver that refuses transfers for space (7015) is alive: the sender keeps retrying with backoff
/// and never reaches "disconnected: timed out" because of refusals, and it resumes at once when the
/// receiver's app makes room (the receiver links back).
@Suite("userInfo back pressure", .timeLimit(.minutes(3)))
struct BackPressureTests {
    static func payload(_ n: Int) -> PlistDictionary { ["n": .integer(Int64(n))] }

    /// As the receiving app: `rounds` times, waits until the inbox holds `size` transfers (full), takes
    /// them and acknowledges them; returns their "n" values in order.
    static func takeFullInboxes(_ rounds: Int, of size: Int, from receiver: PairEngine) async throws -> [PlistValue?] {
        var received: [PlistValue?] = []
        for round in 0..<rounds {
            try await until("round \(round): the inbox is full", on: receiver.appSignal) {
                ((try? await receiver.pendingUserInfo(limit: 100))?.count ?? 0) == size
            }
            let held = try await receiver.pendingUserInfo(limit: 100)
            received += held.map { $0.payload["n"] }
            try await receiver.acknowledgeUserInfo(upTo: try #require(held.last).deliveryId)
        }
        return received
    }

    @Test("refusals never add up to a give-up")
    func refusalsNeverGiveUp() async throws {
        // A give-up after 200 ms of summed delays: refusals counted as failures would reach it in ~20.
        let pair = try EnginePair(.inMemory) {
            $0.backoff = BackoffPolicy(initial: .milliseconds(10), multiplier: 2, maximum: .milliseconds(20), giveUpAfter: .milliseconds(200))
        }
        let watch = try await pair.start(.watch, storeLimits: (outbox: 10_000, inbox: 2))
        let refusals = watch.diagnostics.subscribe()
        let phone = try await pair.start(.phone)
        for n in 0..<10 { _ = try await phone.transferUserInfo(Self.payload(n)) }
        try await withTimeout(.seconds(60), "60 refusals") {
            var seen = 0
            for await event in refusals where event.kind == .queueFull {
                seen += 1
                if seen >= 60 { return }
            }
        }
        #expect(await phone.status().link != "disconnected: timed out")
        #expect(await phone.status().outstandingTransfers == 8)
        await pair.tearDown()
    }

    @Test("the sender resumes as soon as the receiver's app makes room")
    func resumesOnRoom() async throws {
        // The sender's own retry would come only after half an hour: only the room signal can resume it.
        let pair = try EnginePair(.inMemory) {
            $0.backoff = BackoffPolicy(initial: .seconds(3600), multiplier: 2, maximum: .seconds(3600), giveUpAfter: .seconds(360_000))
        }
        let watch = try await pair.start(.watch, storeLimits: (outbox: 10_000, inbox: 4))
        let phone = try await pair.start(.phone)
        for n in 0..<12 { _ = try await phone.transferUserInfo(Self.payload(n)) }
        // Rounds 2 and 3 need the refused transfers again, long before the sender's own retry.
        let received = try await Self.takeFullInboxes(3, of: 4, from: watch)
        #expect(received == (0..<12).map { .integer(Int64($0)) })
        try await until("all finished", on: phone.appSignal) { await phone.status().outstandingTransfers == 0 }
        await pair.tearDown()
    }

    @Test("a foreground phone refusing the watch's transfers links back once its app made room")
    func phoneReceiverResumesOnRoom() async throws {
        // Both sides' own retries would come only after half an hour; the phone's presence links are
        // off while it refuses (each would bring the transfers again): only its room signal can resume.
        let pair = try EnginePair(.inMemory) {
            $0.backoff = BackoffPolicy(initial: .seconds(3600), multiplier: 2, maximum: .seconds(3600), giveUpAfter: .seconds(360_000))
        }
        let watch = try await pair.start(.watch)
        let phone = try await pair.start(.phone, storeLimits: (outbox: 10_000, inbox: 4))
        try await until("phone sees the watch", on: phone.stateSignal) { await phone.isReachable }
        for n in 0..<12 { _ = try await watch.transferUserInfo(Self.payload(n)) }
        let received = try await Self.takeFullInboxes(3, of: 4, from: phone)
        #expect(received == (0..<12).map { .integer(Int64($0)) })
        try await until("all finished", on: watch.appSignal) { await watch.status().outstandingTransfers == 0 }
        await pair.tearDown()
    }
}
