import Foundation
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// Faults below the codec: a corrupted byte, a peer dying mid-frame, a lost frame. Each is detected,
/// reported, and recovered from with every accepted transfer delivered once, intact, in order.
@Suite("link faults", .timeLimit(.minutes(3)))
struct LinkFaultTests {
    /// Queues three transfers at the phone, arms `fault` for the phone's first userInfo write (its second
    /// write on the first link, after the hello: the three frames, written together), starts the watch in
    /// the background, and checks delivery. With `laterTransfer`, one more transfer is queued once the fault
    /// took effect (a lost write is only noticed by the gap before the next frame).
    func deliverThrough(_ fault: Fault, expect rejection: DiagnosticEvent.Kind?, laterTransfer: Bool = false) async throws {
        let pair = try EnginePair(.inMemory)
        let faulty = FaultInjectingTransport(wrapping: pair.network.transport(for: .phone), clock: ContinuousClock())
        let phone = try await pair.start(.phone, transport: faulty)
        var accepted: [UUID] = []
        for n in 0..<3 { accepted.append(try await phone.transferUserInfo(["n": .integer(Int64(n))]).transferId) }
        faulty.inject(.none)
        faulty.inject(fault)
        let applied = faulty.appliedFaults

        let watch = try await pair.start(.watch, launch: .background)
        let watchEvents = watch.diagnostics.subscribe()
        let firstApplied = try await withTimeout(.seconds(60), "applied fault") {
            for await entry in applied where entry.fault != .none { return entry }
            throw StreamEnded(what: "an applied fault")
        }
        #expect(firstApplied.fault == fault)
        if laterTransfer { accepted.append(try await phone.transferUserInfo(["n": .integer(3)]).transferId) }
        let total = accepted.count
        try await until("delivered", on: watch.appSignal) { ((try? await watch.pendingUserInfo()) ?? []).count >= total }
        let received = try await watch.pendingUserInfo()
        #expect(received.map(\.transferId) == accepted)
        #expect(received.map { $0.payload } == (0..<total).map { ["n": .integer(Int64($0))] })
        if let rejection {
            _ = try await watchEvents.first(rejection)
        }
        try await until("acknowledged", on: phone.appSignal) { await phone.status().outstandingTransfers == 0 }
        await pair.tearDown()
    }

    @Test("a corrupted byte is caught by the checksum, never delivered")
    func corruptByte() async throws {
        try await deliverThrough(.corrupt(byteOffset: 24), expect: .frameRejected)
    }

    @Test("a peer that dies mid-frame loses nothing")
    func disconnectMidFrame() async throws {
        try await deliverThrough(.disconnectMidFrame, expect: nil)
    }

    @Test("a lost write is noticed as a gap before the next frame, and resent")
    func droppedFrame() async throws {
        try await deliverThrough(.drop, expect: .frameRejected, laterTransfer: true)
    }

    @Test("garbage instead of a hello is rejected with an error frame")
    func garbage() async throws {
        let pair = try EnginePair(.inMemory)
        let watch = try await pair.start(.watch)
        let events = watch.diagnostics.subscribe()
        let connection = try await pair.network.transport(for: .phone).connect()
        try await connection.write(Array("GET / HTTP/1.1\r\n\r\n".utf8))
        let rejected = try await events.first(.frameRejected)
        #expect(rejected.errorCode == .invalidParameter || rejected.errorCode == .payloadTooLarge)
        // The daemon answered with frames (its hello, then an error) and closed.
        var bytes: [UInt8] = []
        for try await chunk in connection.inbound { bytes += chunk }
        var decoder = FrameDecoder()
        decoder.append(bytes)
        var frames: [Frame] = []
        while let frame = try decoder.next() { frames.append(frame) }
        #expect(frames.contains { if case .error(0, _, _) = $0 { true } else { false } })
        await pair.tearDown()
    }

    @Test("a peer of another pair is refused at the handshake")
    func wrongPair() async throws {
        let pair = try EnginePair(.inMemory)
        let watch = try await pair.start(.watch)
        let events = watch.diagnostics.subscribe()
        let connection = try await pair.network.transport(for: .phone).connect()
        let hello = Hello(
            role: .phone, pairId: "someone-else", storeId: UUID(), launch: .foreground,
            resume: ResumeState(peerStoreId: nil, lastUserInfoSeq: 0, contextVersion: 0)
        )
        try await connection.write(FrameEncoder.encode(.hello(hello)))
        let failed = try await events.first(.handshakeFailed)
        #expect(failed.message.contains("someone-else"))
        await pair.tearDown()
    }
}
