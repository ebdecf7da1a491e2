import Foundation
import Testing
import WatchConnectivity
import WatchConnectivityTesting
import WatchPairCore

/// docs/Watches.md through the kit: a phone with two watches, switched as Apple's devices switch, in memory
/// and over real Unix sockets.
@Suite("WCSessionPair: a phone with several watches", .timeLimit(.minutes(3)))
struct WatchSwitchPairTests {
    /// The `WCError` code `body` throws (nil when it does not throw).
    static func code(_ body: () throws -> Void) -> WCError.Code? {
        do {
            try body()
            return nil
        } catch {
            return (error as? WCError)?.code
        }
    }

    /// The code of the `WCError` an async `body` throws (nil when it does not throw).
    static func code(_ body: () async throws -> Void) async -> WCError.Code? {
        do {
            try await body()
            return nil
        } catch {
            return (error as? WCError)?.code
        }
    }

    /// A phone with watches `a` (active) and `b`, the phone's session activated with a recorder.
    static func phoneWithTwoWatches(_ mode: WCSessionTestMode) async throws -> (WCSessionPair, SessionRecorder) {
        let pair = try WCSessionPair(mode, watches: ["a", "b"])
        return (pair, try await pair.activate(.phone))
    }

    /// Activates watch `a` and returns its recorder once the phone reaches it.
    static func linkWatchA(_ pair: WCSessionPair) async throws -> SessionRecorder {
        let a = try await pair.activate(watch: "a")
        await pair.phone.waitForReachability()
        return a
    }

    @Test("Apple's sequence: inactive (7016), deactivated, re-activated on the new watch; each watch's queue is its own",
          arguments: WCSessionTestMode.allCases)
    func wholeSequence(_ mode: WCSessionTestMode) async throws {
        let (pair, phone) = try await Self.phoneWithTwoWatches(mode)
        let a = try await Self.linkWatchA(pair)
        #expect(pair.activeWatch == "a" && pair.phone.isPaired)
        let directoryOfA = try #require(pair.phone.watchDirectoryURL)
        pair.phone.transferUserInfo(["to": "a", "n": 1])
        #expect(try await a.first(\.userInfo) == ["to": "a", "n": 1])

        // Watch a goes off; what is queued for it now waits for it.
        await pair.watch("a").shutdown()
        await pair.phone.waitForReachability(false)
        pair.phone.transferUserInfo(["to": "a", "n": 2])

        try await pair.switch(to: "b")
        #expect(pair.phone.activationState != .activated)
        #expect(Self.code { try pair.phone.updateApplicationContext(["x": 1]) } == .sessionInactive)
        try await phone.first { $0 == .becameInactive }
        // a's link is gone: the session deactivates with a's item still queued.
        try await phone.first { $0 == .deactivated }
        #expect(pair.phone.activationState == .notActivated)
        #expect(!pair.phone.isPaired)

        let b = try await pair.activate(watch: "b")
        pair.phone.activate()
        #expect(try await phone.first(\.activationState) == .activated)
        // The session describes another watch now.
        #expect(try await phone.next().watchState != nil)
        await pair.phone.waitForReachability()
        #expect(pair.phone.isPaired && pair.phone.isWatchAppInstalled)
        let directoryOfB = try #require(pair.phone.watchDirectoryURL)
        #expect(directoryOfB != directoryOfA)
        pair.phone.transferUserInfo(["to": "b"])
        // b gets its own, never a's.
        #expect(try await b.first(\.userInfo) == ["to": "b"])
        try await phone.first { $0.finishedUserInfo?.userInfo == ["to": "b"] }

        // Back to a: b is drained, so the switch completes at once; a gets what waited for it.
        let a2 = try await pair.activate(watch: "a")
        try await pair.switch(to: "a")
        try await phone.first { $0 == .becameInactive }
        try await phone.first { $0 == .deactivated }
        pair.phone.activate()
        #expect(try await phone.first(\.activationState) == .activated)
        // (a may get n 1 again: it was shut down before acknowledging it, like a crash.)
        var arrived: [WCPayload] = []
        while arrived.last != ["to": "a", "n": 2] { arrived.append(try await a2.first(\.userInfo)) }
        #expect(arrived.allSatisfy { $0["to"] as? String == "a" })
        #expect(pair.phone.watchDirectoryURL == directoryOfA)
        #expect(b.unread.compactMap(\.userInfo).isEmpty)

        // Unpairing b removes its watch directory; a's stays.
        #expect(FileManager.default.fileExists(atPath: directoryOfB.path))
        try await pair.unpair("b")
        #expect(!FileManager.default.fileExists(atPath: directoryOfB.path))
        #expect(FileManager.default.fileExists(atPath: directoryOfA.path))
        await pair.shutdown()
    }

    @Test("while the old watch drains, what was queued for it still goes out; new content fails with 7016",
          arguments: WCSessionTestMode.allCases)
    func drainsWhileInactive(_ mode: WCSessionTestMode) async throws {
        let (pair, phone) = try await Self.phoneWithTwoWatches(mode)
        let a = try await Self.linkWatchA(pair)
        for n in 1...5 { pair.phone.transferUserInfo(["n": n]) }
        try await pair.switch(to: "b")
        let refused = pair.phone.transferUserInfo(["n": 99])
        #expect(!refused.isTransferring)
        for n in 1...5 { #expect(try await a.first(\.userInfo) == ["n": n]) }
        try await phone.first { $0 == .deactivated }
        #expect(pair.phone.outstandingUserInfoTransfers.isEmpty)
        await pair.shutdown()
    }

    @Test("an app that does not re-activate in sessionDidDeactivate stays .notActivated and cannot send",
          arguments: WCSessionTestMode.allCases)
    func noReactivation(_ mode: WCSessionTestMode) async throws {
        let (pair, phone) = try await Self.phoneWithTwoWatches(mode)
        try await pair.switch(to: "b")
        try await phone.first { $0 == .deactivated }
        #expect(pair.phone.activationState == .notActivated)
        #expect(Self.code { try pair.phone.updateApplicationContext(["x": 1]) } == .sessionNotActivated)
        #expect(!pair.phone.transferUserInfo(["x": 1]).isTransferring)
        #expect(!pair.phone.isPaired && !pair.phone.isReachable && pair.phone.watchDirectoryURL == nil)
        #expect(pair.phone.activationState == .notActivated)
        await pair.shutdown()
    }

    @Test("unpair drops the watch's queue and its watch directory; with no watch active isPaired is false and sends fail 7005",
          arguments: WCSessionTestMode.allCases)
    func unpairDrops(_ mode: WCSessionTestMode) async throws {
        let (pair, phone) = try await Self.phoneWithTwoWatches(mode)
        // Watch a never runs: its content queues.
        pair.phone.transferUserInfo(["n": 1])
        pair.phone.transferUserInfo(["n": 2])
        try pair.phone.updateApplicationContext(["list": "milk"])
        let watchStateSeen = pair.phone.watchDirectoryURL
        let dropped = try await pair.unpair("a")
        #expect(dropped == QueuedCounts(userInfo: 2, files: 0, context: 1))
        try await phone.first { $0 == .becameInactive }
        try await phone.first { $0 == .deactivated }
        if let watchStateSeen { #expect(!FileManager.default.fileExists(atPath: watchStateSeen.path)) }
        #expect(pair.watches.map(\.paired) == [false, true] && pair.activeWatch == nil)

        pair.phone.activate()
        #expect(try await phone.first(\.activationState) == .activated)
        #expect(try await phone.next().watchState?.isPaired == false)
        #expect(!pair.phone.isPaired)
        #expect(Self.code { try pair.phone.updateApplicationContext(["x": 1]) } == .deviceNotPaired)
        #expect(await Self.code { try await pair.switch(to: "a") } == .deviceNotPaired)

        // Switching to b binds the activated session directly: the watch's state changed.
        let b = try await pair.activate(watch: "b")
        try await pair.switch(to: "b")
        try await phone.first { $0.watchState != nil }
        #expect(pair.phone.isPaired && pair.activeWatch == "b")
        pair.phone.transferUserInfo(["to": "b"])
        #expect(try await b.first(\.userInfo) == ["to": "b"])

        // a paired again starts empty: nothing of what was dropped comes back.
        try await pair.pair("a")
        #expect(pair.watches.map(\.paired) == [true, true] && pair.activeWatch == "b")
        await pair.shutdown()
    }

    @Test("clear errors: an unknown watch (7008), a switch during a switch (7016); a switch to the active watch does nothing")
    func errors() async throws {
        let (pair, phone) = try await Self.phoneWithTwoWatches(.inMemory)
        let unknown = await Self.code { try await pair.switch(to: "c") }
        #expect(unknown == .invalidParameter)
        #expect(await Self.code { try await pair.unpair("c") } == .invalidParameter)
        try await pair.switch(to: "a")
        #expect(pair.phone.activationState == .activated && phone.unread.isEmpty)
        // Watch a is linked, and the acknowledgement of what was queued for it is held: the switch waits for a's queue.
        _ = try await pair.activate(watch: "a")
        await pair.phone.waitForReachability()
        pair.faults?.delayNext(.userInfo, from: .phone, by: .seconds(3600))
        pair.phone.transferUserInfo(["n": 1])
        try await pair.switch(to: "b")
        try await phone.first { $0 == .becameInactive }
        #expect(await Self.code { try await pair.switch(to: "a") } == .sessionInactive)
        #expect(await Self.code { try await pair.switch(to: "b") } == .sessionInactive)
        #expect(pair.phone.activationState == .inactive)
        await pair.shutdown()
    }
}
