import Foundation
import Synchronization
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// A peer that acknowledges what was never sent (a forged hello, ack or contextAck) is refused: the
/// link closes with `handshakeFailed` / `frameRejected`, and nothing queued is marked finished.
@Suite("protocol violations by the peer", .timeLimit(.minutes(3)))
struct LinkProtocolViolationTests {
    static func hello(claiming seq: UInt64, context: UInt64 = 0, of store: UUID?) -> Frame {
        .hello(Hello(
            role: .phone, pairId: "default", storeId: UUID(), launch: .foreground,
            resume: ResumeState(peerStoreId: store, lastUserInfoSeq: seq, contextVersion: context)))
    }

    /// A watch engine with 20 queued transfers and a context, and the first connection it opened.
    static func watchWithContent() async throws -> (SoloEngine, ScriptedPeerTransport, InMemoryConnection) {
        let peer = ScriptedPeerTransport()
        // A busy machine may take seconds before the test writes its forged frame: the link must not time
        // out first (the engine would close it, and the write would fail instead of being refused).
        let solo = try await SoloEngine.start(.watch, transport: peer) {
            $0.finalWriteTimeout = .seconds(30)
            $0.handshakeTimeout = .seconds(60)
        }
        for n in 0..<20 { _ = try await solo.engine.transferUserInfo(["n": .integer(Int64(n))]) }
        try await solo.engine.updateApplicationContext(["v": .integer(1)])
        var connections = peer.connections.makeAsyncIterator()
        let connection = try #require(await connections.next())
        return (solo, peer, connection)
    }

    static func expectNothingFinished(_ solo: SoloEngine, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(await solo.engine.status().outstandingTransfers == 20, sourceLocation: sourceLocation)
        #expect(try await solo.engine.pendingFinished().isEmpty, sourceLocation: sourceLocation)
        #expect(try await solo.engine.outstandingUserInfoTransfers().count == 20, sourceLocation: sourceLocation)
    }

    @Test("a hello claiming every seq up to 2^63 received is refused and finishes nothing")
    func forgedHello() async throws {
        let (solo, _, connection) = try await Self.watchWithContent()
        let events = solo.engine.diagnostics.subscribe()
        try await connection.write(FrameEncoder.encode(Self.hello(claiming: UInt64(1) << 63, of: solo.store.storeId)))
        let refused = try await events.first(.handshakeFailed)
        #expect(refused.message.contains("only 20 were ever sent") == true)
        try await Self.expectNothingFinished(solo)
        await solo.stop()
    }

    @Test("a hello claiming a context version never sent is refused")
    func forgedContextHello() async throws {
        let (solo, _, connection) = try await Self.watchWithContent()
        let events = solo.engine.diagnostics.subscribe()
        try await connection.write(FrameEncoder.encode(Self.hello(claiming: 0, context: 99, of: solo.store.storeId)))
        _ = try await events.first(.handshakeFailed)
        #expect(await solo.engine.status().contextAckedVersion == 0)
        await solo.stop()
    }

    @Test("a link-level error is the last frame: the outbox pump sends nothing after it")
    func nothingAfterLinkLevelError() async throws {
        let peer = ScriptedPeerTransport()
        // Queueing 300 transfers may take seconds on a busy machine while the first link waits for our
        // hello: neither that nor the last write may time out here.
        let solo = try await SoloEngine.start(.watch, transport: peer) {
            $0.finalWriteTimeout = .seconds(30)
            $0.handshakeTimeout = .seconds(60)
        }
        // More than the pipe holds (1 MiB), so the pump is still sending when the forged ack arrives.
        let payload = String(repeating: "x", count: 8_000)
        for n in 0..<300 { _ = try await solo.engine.transferUserInfo(["n": .integer(Int64(n)), "pad": .string(payload)]) }
        var connections = peer.connections.makeAsyncIterator()
        var engineEnds = peer.engineEnds.makeAsyncIterator()
        let connection = try #require(await connections.next())
        let engineEnd = try #require(await engineEnds.next())
        let events = solo.engine.diagnostics.subscribe()
        try await connection.write(FrameEncoder.encode(Self.hello(claiming: 0, of: nil)))
        _ = try await events.first(.peerConnected)
        await engineEnd.waitForSuspendedWrites()
        try await connection.write(FrameEncoder.encode(.ack(upTo: 1_000)))
        _ = try await events.first(.frameRejected)

        var decoder = FrameDecoder()
        var frames: [Frame] = []
        for try await chunk in connection.inbound {
            decoder.append(chunk)
            while let frame = try decoder.next() { frames.append(frame) }
        }
        let errorAt = try #require(frames.lastIndex { if case .error = $0 { true } else { false } }, "no error frame")
        #expect(errorAt == frames.count - 1, "\(frames.count - 1 - errorAt) frames after the link-level error")
        #expect(frames.contains { if case .userInfo = $0 { true } else { false } }, "the pump was sending")
        await solo.stop()
    }

    @Test("an ack or a contextAck beyond what was sent is rejected and applies nothing", arguments: [true, false])
    func forgedAck(context: Bool) async throws {
        let (solo, _, connection) = try await Self.watchWithContent()
        let events = solo.engine.diagnostics.subscribe()
        try await connection.write(FrameEncoder.encode(Self.hello(claiming: 0, of: nil)))
        _ = try await events.first(.peerConnected)
        let forged: Frame = context ? .contextAck(version: 1_000) : .ack(upTo: 1_000)
        try await connection.write(FrameEncoder.encode(forged))
        let rejected = try await events.first(.frameRejected)
        #expect(rejected.errorCode == .invalidParameter)
        try await Self.expectNothingFinished(solo)
        #expect(await solo.engine.status().contextAckedVersion == 0)
        // The real acknowledgements still work on the next link.
        await solo.stop()
    }
}

/// A second process of the same user saying hello as the phone next to the real one.
@Suite("a second peer next to the real one", .timeLimit(.minutes(3)))
struct SecondPeerTests {
    @Test("its hello is refused with a reason naming both stores; the real link keeps carrying transfers")
    func intruderIsRefused() async throws {
        let pair = try EnginePair(.inMemory)
        let watch = try await pair.start(.watch)
        let phone = try await pair.start(.phone)
        // Both ends have completed the real handshake (the watch's may lag the phone's).
        try await until("the real link", on: phone.stateSignal) { await phone.isReachable }
        try await until("the watch's end of it", on: watch.stateSignal) { await watch.status().link == "connected" }
        let events = watch.diagnostics.subscribe()
        let seen = Mutex<[DiagnosticEvent]>([])
        let collector = Task { for await event in events { seen.withLock { $0.append(event) } } }

        let intruder = try await pair.network.transport(for: .phone).connect()
        let forged = Hello(
            role: .phone, pairId: "default", storeId: UUID(), launch: .foreground,
            resume: ResumeState(peerStoreId: nil, lastUserInfoSeq: 0, contextVersion: 0))
        try await intruder.write(FrameEncoder.encode(.hello(forged)))
        var decoder = FrameDecoder()
        var answer: [Frame] = []
        for try await chunk in intruder.inbound {
            decoder.append(chunk)
            while let frame = try decoder.next() { answer.append(frame) }
        }
        guard case .error(0, .invalidParameter, let reason) = answer.last else {
            Issue.record("no link-level error for the intruder: \(answer)")
            return
        }
        #expect(reason.contains("a second phone (store \(forged.storeId)) is refused"), "\(reason)")

        // The real phone's transfers all arrive on its link, which was never dropped.
        for n in 0..<200 { _ = try await phone.transferUserInfo(["n": .integer(Int64(n))]) }
        try await until("200 delivered", on: watch.appSignal) { ((try? await watch.pendingUserInfo(limit: 500)) ?? []).count == 200 }
        collector.cancel()
        let kinds = seen.withLock { $0.map(\.kind) }
        #expect(kinds.filter { $0 == .handshakeFailed }.count == 1)
        #expect(!kinds.contains(.frameRejected) && !kinds.contains(.peerDisconnected), "\(kinds)")
        await pair.tearDown()
    }
}
