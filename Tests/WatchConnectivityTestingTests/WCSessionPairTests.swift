import Foundation
import Testing
import WatchConnectivity
import WatchConnectivityTesting

/// One test body per channel, run in memory and over real Unix sockets (`WCSessionTestMode`), with the
/// kit's recorders and awaited replies.
@Suite("WCSessionPair: the same bodies in memory and over sockets", .timeLimit(.minutes(3)))
struct WCSessionPairTests {
    @Test("a message is answered, both ways", arguments: WCSessionTestMode.allCases)
    func messages(_ mode: WCSessionTestMode) async throws {
        let pair = try WCSessionPair(mode)
        let (phone, watch) = try await pair.activate()
        for (sender, receiver, text) in [(pair.phone, watch, "from phone"), (pair.watch, phone, "from watch")] {
            async let reply = sender.sendMessageAwaitingReply(["text": text])
            let message = try await receiver.first(\.message)
            #expect(message["text"] as? String == text)
            message.reply(["echo": text])
            #expect(try await reply["echo"] as? String == text)
        }
        await pair.shutdown()
    }

    @Test("a data message is answered", arguments: WCSessionTestMode.allCases)
    func dataMessages(_ mode: WCSessionTestMode) async throws {
        let pair = try WCSessionPair(mode)
        let (phone, _) = try await pair.activate()
        async let reply = pair.watch.sendMessageDataAwaitingReply(Data([1, 2, 3]))
        let message = try await phone.first(\.messageData)
        #expect(message.data == Data([1, 2, 3]) && message.expectsReply)
        message.reply(Data(message.data.reversed()))
        #expect(try await reply == Data([3, 2, 1]))
        await pair.shutdown()
    }

    @Test("userInfo transfers arrive in order and the sender hears didFinish", arguments: WCSessionTestMode.allCases)
    func transfers(_ mode: WCSessionTestMode) async throws {
        let pair = try WCSessionPair(mode)
        let (phone, watch) = try await pair.activate()
        let items = ["milk", "eggs", "bread"]
        for item in items {
            #expect(pair.phone.transferUserInfo(["item": item]).userInfo["item"] as? String == item)
        }
        for item in items {
            #expect(try await watch.first(\.userInfo) == ["item": item])
        }
        for item in items {
            let finished = try await phone.first(\.finishedUserInfo)
            #expect(finished.userInfo == ["item": item] && finished.error == nil && !finished.transfer.isTransferring)
        }
        #expect(pair.phone.outstandingUserInfoTransfers.isEmpty)
        await pair.shutdown()
    }

    @Test("the application context reaches the counterpart", arguments: WCSessionTestMode.allCases)
    func context(_ mode: WCSessionTestMode) async throws {
        let pair = try WCSessionPair(mode)
        let (_, watch) = try await pair.activate()
        try pair.phone.updateApplicationContext(["list": "milk,eggs"])
        #expect(try await watch.first(\.applicationContext) == ["list": "milk,eggs"])
        #expect(pair.watch.receivedApplicationContext["list"] as? String == "milk,eggs")
        #expect(pair.phone.applicationContext["list"] as? String == "milk,eggs")
        await pair.shutdown()
    }

    @Test("a file arrives whole with its metadata, and the sender hears didFinish", arguments: WCSessionTestMode.allCases)
    func files(_ mode: WCSessionTestMode) async throws {
        let pair = try WCSessionPair(mode)
        let (phone, watch) = try await pair.activate()
        let bytes = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let url = URL(fileURLWithPath: pair.directory).appendingPathComponent("route.gpx")
        try bytes.write(to: url)
        let transfer = pair.phone.transferFile(url, metadata: ["id": 7])
        let file = try await watch.first(\.file)
        #expect(file.name == "route.gpx" && file.contents == bytes && file.metadata == ["id": 7])
        let finished = try await phone.first(\.finishedFile)
        #expect(finished.transfer === transfer && finished.error == nil)
        await pair.shutdown()
    }

    @Test("a message the app's own delegate does not implement fails with 7014, and is still recorded",
          arguments: WCSessionTestMode.allCases)
    func notImplemented(_ mode: WCSessionTestMode) async throws {
        let pair = try WCSessionPair(mode)
        let (_, watch) = try await pair.activate(watch: CountingDelegate())
        let error = await #expect(throws: WCError.self) { try await pair.phone.sendMessageAwaitingReply(["n": 1]) }
        #expect(error?.code == .deliveryFailed)
        #expect(try await watch.first(\.message).payload == ["n": 1])
        await pair.shutdown()
    }

    @Test("in memory, transfers survive the watch's link breaking: each arrives once, in order")
    func transfersSurviveAFault() async throws {
        // Reconnecting waits for backoff delays on the clock: the self-driving clock passes them.
        let pair = try WCSessionPair(.inMemory, clock: .automatic)
        let (phone, watch) = try await pair.activate()
        // The watch's next write (an acknowledgement) closes its link instead.
        pair.faults?.inject(.disconnect)
        let items = (0..<20).map { "item\($0)" }
        for item in items {
            pair.phone.transferUserInfo(["item": item])
        }
        for item in items {
            #expect(try await watch.first(\.userInfo) == ["item": item])
        }
        for item in items {
            #expect(try await phone.first(\.finishedUserInfo).userInfo == ["item": item])
        }
        #expect(pair.faults?.pendingFaultCount == 0)  // the link did break
        await pair.shutdown()
    }

    @Test("in memory, the test owns the clock and the faults")
    func inMemoryHandles() async throws {
        let pair = try WCSessionPair(.inMemory)
        #expect(pair.clock != nil && pair.network != nil && pair.faults != nil && pair.clockMode == .manual)
        let sockets = try WCSessionPair(.unixSockets, clock: .automatic)
        #expect(sockets.clock == nil && sockets.network == nil && sockets.faults == nil && sockets.clockMode == .manual)
        await pair.shutdown()
        await sockets.shutdown()
    }
}
