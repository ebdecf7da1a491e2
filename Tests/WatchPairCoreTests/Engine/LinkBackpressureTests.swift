import Foundation
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// Both sides sending more than the sockets buffer, at once. An engine whose frame reader waited for its
/// own writes (an ack, a contextAck, a pong) would stop reading as soon as its send buffer filled, and two
/// such engines stop each other for good: these floods only finish if the readers never wait for writes.
@Suite("link under backpressure", .timeLimit(.minutes(3)))
struct LinkBackpressureTests {
    /// A payload of `size` bytes: a handful of 40 KB frames fill a Unix socket's send buffer (about
    /// 208 KiB by default); one 200 KB context nearly does.
    static func bulky(_ side: String, _ n: Int, size: Int = 40_000) -> PlistDictionary {
        ["side": .string(side), "n": .integer(Int64(n)), "fill": .data(Data(repeating: UInt8(n & 0xFF), count: size))]
    }

    @Test("userInfo floods in both directions are all delivered")
    func userInfoBothWays() async throws {
        let pair = try EnginePair(.unixSocket)
        let phone = try await pair.start(.phone)
        let watch = try await pair.start(.watch)
        try await until("phone sees the watch", on: phone.stateSignal) { await phone.isReachable }
        let count = 300
        try await withTimeout(.seconds(60), "\(count) transfers accepted on each side") {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (engine, side) in [(phone, "phone"), (watch, "watch")] {
                    group.addTask {
                        for n in 0..<count { _ = try await engine.transferUserInfo(Self.bulky(side, n)) }
                    }
                }
                try await group.waitForAll()
            }
        }
        for (receiver, sender) in [(watch, "phone"), (phone, "watch")] {
            try await until("\(count) transfers from the \(sender)", on: receiver.appSignal) {
                ((try? await receiver.pendingUserInfo(limit: count + 1))?.count ?? 0) >= count
            }
            let received = try await receiver.pendingUserInfo(limit: count + 1)
            #expect(received.map { $0.payload["n"] } == (0..<count).map { .integer(Int64($0)) })
            #expect(received.allSatisfy { $0.payload["side"] == .string(sender) })
        }
        await pair.tearDown()
    }

    @Test("context bursts in both directions end at each side's newest value")
    func contextBothWays() async throws {
        let pair = try EnginePair(.unixSocket)
        let phone = try await pair.start(.phone)
        let watch = try await pair.start(.watch)
        // Linked first, so every update goes out while the others are still being made.
        try await until("phone sees the watch", on: phone.stateSignal) { await phone.isReachable }
        let newest = try await withTimeout(.seconds(60), "64 updates on each side") {
          try await withThrowingTaskGroup(of: (String, StoredContext?).self) { group in
            for (engine, side) in [(phone, "phone"), (watch, "watch")] {
                group.addTask {
                    // 64 updates in flight at once, as a busy app would make them.
                    let stored = try await withThrowingTaskGroup(of: StoredContext?.self) { updates in
                        for n in 0..<64 { updates.addTask { try await engine.updateApplicationContext(Self.bulky(side, n, size: 200_000)) } }
                        return try await updates.reduce(into: [StoredContext]()) { if let stored = $1 { $0.append(stored) } }
                    }
                    return (side, stored.max { $0.version < $1.version })
                }
            }
            return try await group.reduce(into: [String: StoredContext]()) { $0[$1.0] = $1.1 }
          }
        }
        let fromPhone = try #require(newest["phone"])
        let fromWatch = try #require(newest["watch"])
        try await until("the watch holds the phone's newest context", on: watch.appSignal) {
            (try? await watch.receivedApplicationContext()) == fromPhone.payload
        }
        try await until("the phone holds the watch's newest context", on: phone.appSignal) {
            (try? await phone.receivedApplicationContext()) == fromWatch.payload
        }
        await pair.tearDown()
    }
}
