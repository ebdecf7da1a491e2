import Foundation
import Testing
import WatchConnection
import WatchConnectionWCSession
import WatchConnectivity
import WatchConnectivityTesting

/// docs/Watches.md: the layer over WatchPair's `WCSession` follows a watch switch, because its adapter
/// re-activates in `sessionDidDeactivate` as Apple's sample code does (the shopping list on KeyedSync runs
/// on it).
@MainActor
@Suite("WatchConnection over a phone with two watches", .timeLimit(.minutes(3)))
struct WatchSwitchConnectionTests {
    @Test("after a switch the phone's connection re-activates by itself and its requests reach the new watch")
    func followsTheSwitch() async throws {
        let pair = try WCSessionPair(.inMemory, watches: ["a", "b"])
        let clock = try #require(pair.clock)
        let phone = WatchConnection(session: WCSessionAdapter(pair.phone), clock: clock)
        let a = WatchConnection(session: pair.watch("a"), clock: clock)
        let namesAtA = a.registerNameRecorder()
        try await phone.waitForConnection()
        #expect(try await phone.send(Greet(name: "to a")) == Greeting(text: "to a"))
        var arrivalsAtA = namesAtA.makeAsyncIterator()
        #expect(await arrivalsAtA.next() == "to a")

        let b = WatchConnection(session: pair.watch("b"), clock: clock)
        let namesAtB = b.registerNameRecorder()
        try await pair.switch(to: "b")
        await phone.waitForStatus { !$0.isActivated }
        try await phone.waitForConnection()
        #expect(pair.phone.activationState == .activated && pair.activeWatch == "b")
        #expect(try await phone.send(Greet(name: "to b")) == Greeting(text: "to b"))
        var arrivalsAtB = namesAtB.makeAsyncIterator()
        #expect(await arrivalsAtB.next() == "to b")
        await pair.shutdown()
    }
}
