import Foundation
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// docs/Design.md, "Messages": a message call ends within its timeout, link set-up and handshake included.
/// Through a peer that accepts but never answers (a black hole), 7007 comes at the shorter of the handshake
/// timeout and the message timeout, also when a link was already handshaking when the call began.
@Suite("message deadline through a black hole", .timeLimit(.minutes(3)))
struct MessageDeadlineTests {
    @Test("7007 at min(handshake timeout, message timeout)", arguments: [(3, 3), (8, 5)])
    func blackHole(timeout: Int, expected: Int) async throws {
        let clock = ManualClock()
        let peer = ScriptedPeerTransport()
        let solo = try await SoloEngine.start(.watch, transport: peer, clock: clock) {
            $0.handshakeTimeout = .seconds(5)
        }
        // Queued content makes the engine open a link of its own, which the black hole never answers.
        _ = try await solo.engine.transferUserInfo(["n": .integer(1)])
        var connections = peer.connections.makeAsyncIterator()
        _ = await connections.next()
        await clock.waitForSleepers(count: 1)  // that link's handshake watchdog
        let events = solo.engine.diagnostics.subscribe()
        let sent = Task {
            try await solo.engine.sendMessage(.dictionary(["ping": .integer(1)]), wantsReply: true, timeout: .seconds(timeout))
        }
        // The call's deadline and its link-set-up limit join the watchdog.
        await clock.waitForSleepers(count: 3)
        clock.advance(by: .seconds(expected))
        // Cancellable, so a call that never ends fails this test at the bound instead of hanging it.
        let result = try await withTimeout(.seconds(60), "the call's outcome") {
            await withTaskCancellationHandler { await sent.result } onCancel: { sent.cancel() }
        }
        switch result {
        case .success: Issue.record("expected 7007")
        case .failure(let error): #expect((error as? WCFailure)?.code == .notReachable, "\(error)")
        }
        #expect(clock.now.offset == .seconds(expected))
        let failed = try await events.first(.messageFailed)
        #expect(failed.errorCode == .notReachable)
        await solo.stop()
    }

    @Test("a link that stopped taking bytes: the call still ends at its timeout, with 7012")
    func fullSocket() async throws {
        let clock = ManualClock()
        let peer = ScriptedPeerTransport()
        let solo = try await SoloEngine.start(.watch, transport: peer, clock: clock)
        // 40 transfers of ~60 KB: more than the 1 MiB the pipe holds unread, so the engine's writes wait.
        let big = String(repeating: "x", count: 60_000)
        for n in 0..<40 { _ = try await solo.engine.transferUserInfo(["n": .integer(Int64(n)), "p": .string(big)]) }
        var connections = peer.connections.makeAsyncIterator()
        var engineEnds = peer.engineEnds.makeAsyncIterator()
        let connection = try #require(await connections.next())
        let engineEnd = try #require(await engineEnds.next())
        let events = solo.engine.diagnostics.subscribe()
        try await connection.write(FrameEncoder.encode(LinkProtocolViolationTests.hello(claiming: 0, of: nil)))
        _ = try await events.first(.peerConnected)
        // The peer reads nothing: the userInfo pump's write is suspended on the full pipe.
        await engineEnd.waitForSuspendedWrites(count: 1)
        let sent = Task {
            try await solo.engine.sendMessage(.dictionary(["ping": .integer(1)]), wantsReply: true, timeout: .seconds(2))
        }
        // The call cannot write its frame at once, so it waits in a task of its own; only its deadline sleeps.
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(2))
        let result = try await withTimeout(.seconds(60), "the call's outcome") {
            await withTaskCancellationHandler { await sent.result } onCancel: { sent.cancel() }
        }
        switch result {
        case .success: Issue.record("expected 7012")
        case .failure(let error): #expect((error as? WCFailure)?.code == .messageReplyTimedOut, "\(error)")
        }
        await solo.stop()
    }
}
