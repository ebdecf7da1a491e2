import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// The user opens a background-launched app (`wcctl open`, `systemctl reload`): it moves to the
/// foreground, and the peer learns it on the link it already has.
@Suite("opening a background-launched app", .timeLimit(.minutes(3)))
struct OpenAppTests {
    @Test("a background watch opened becomes reachable for the phone on the same link", arguments: TransportKind.allCases)
    func openedWatchIsReachable(_ kind: TransportKind) async throws {
        let pair = try EnginePair(kind)
        let watch = try await pair.start(.watch, launch: .background)
        let phone = try await pair.start(.phone)
        try await until("the phone links to the running watch", on: phone.stateSignal) { await phone.status().link == "connected" }
        #expect(await !phone.isReachable, "a background watch is not reachable for the phone's messages")
        await watch.setMessageHandler(MessageChannelTests.echo)
        await #expect(throws: WCFailure.self) { _ = try await phone.sendMessage(.dictionary(["early": .bool(true)]), wantsReply: true) }
        let events = watch.diagnostics.subscribe()

        #expect(await watch.open())
        #expect(await watch.launch == .foreground)
        _ = try await events.first(.appOpened)
        try await until("the phone sees the watch in the foreground", on: phone.stateSignal) { await phone.isReachable }
        #expect(await phone.status().peerLaunch == .foreground)
        let reply = try await phone.sendMessage(.dictionary(["hi": .bool(true)]), wantsReply: true)
        #expect(reply == .dictionary(["hi": .bool(true)]))
        #expect(await !watch.open(), "already in the foreground")
        await pair.tearDown()
    }
}
