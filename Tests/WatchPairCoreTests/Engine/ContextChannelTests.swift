import Foundation
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// The applicationContext channel: last value wins, identical updates not re-sent, empty clears,
/// and both contexts survive restarts.
@Suite("applicationContext channel", .timeLimit(.minutes(3)))
struct ContextChannelTests {
    @Test("the receiver ends at the newest value", arguments: TransportKind.allCases)
    func lastWins(kind: TransportKind) async throws {
        let pair = try EnginePair(kind)
        let phone = try await pair.start(.phone)
        for n in 1...5 { try await phone.updateApplicationContext(["n": .integer(Int64(n))]) }
        let watch = try await pair.start(.watch)
        try await until("newest context", on: watch.appSignal) {
            (try? await watch.receivedApplicationContext()) == ["n": .integer(5)]
        }
        #expect(try await watch.pendingContext()?.payload == ["n": .integer(5)])
        #expect(try await phone.applicationContext() == ["n": .integer(5)])
        await pair.tearDown()
    }

    @Test("an identical update is not delivered again; an empty one clears")
    func identicalAndEmpty() async throws {
        let pair = try EnginePair(.inMemory)
        let phone = try await pair.start(.phone)
        let watch = try await pair.start(.watch)
        let events = watch.diagnostics.subscribe()
        let first = try #require(try await phone.updateApplicationContext(["mode": .string("run")]))
        _ = try await events.first(.contextReceived) { $0.seq == first.version }
        #expect(try await phone.updateApplicationContext(["mode": .string("run")]) == nil)

        let cleared = try #require(try await phone.updateApplicationContext([:]))
        #expect(cleared.version == first.version + 1)
        let received = try await events.first(.contextReceived)
        // The event after the first one is the clearing one: the identical update produced none.
        #expect(received.seq == cleared.version)
        #expect(try await watch.receivedApplicationContext() == [:])
        await pair.tearDown()
    }

    @Test("sent and received contexts are there again at launch")
    func survivesRestart() async throws {
        let pair = try EnginePair(.unixSocket)
        let phone = try await pair.start(.phone)
        let watch = try await pair.start(.watch)
        try await phone.updateApplicationContext(["v": .double(1.5)])
        try await until("received", on: watch.appSignal) { (try? await watch.receivedApplicationContext()) == ["v": .double(1.5)] }
        await pair.stop(.phone)
        await pair.stop(.watch)
        let phoneAgain = try await pair.start(.phone)
        #expect(try await phoneAgain.applicationContext() == ["v": .double(1.5)])
        let watchAgain = try await pair.start(.watch)
        #expect(try await watchAgain.receivedApplicationContext() == ["v": .double(1.5)])
        await pair.tearDown()
    }

    @Test("oversized contexts fail with 7009")
    func tooLarge() async throws {
        let pair = try EnginePair(.inMemory)
        let phone = try await pair.start(.phone)
        do {
            try await phone.updateApplicationContext(["blob": .data(Data(count: 262_145))])
            Issue.record("expected 7009")
        } catch {
            #expect(error.code == .payloadTooLarge)
        }
        #expect(try await phone.applicationContext() == [:])
        await pair.tearDown()
    }
}
