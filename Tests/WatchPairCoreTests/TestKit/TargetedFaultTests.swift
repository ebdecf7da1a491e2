import Foundation
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// Faults aimed at frames of one kind, through real connections: only those frames are hit, the rest
/// arrive untouched and in order.
@Suite("FaultInjectingTransport: faults aimed at frames", .timeLimit(.minutes(3)))
struct TargetedFaultTests {
    /// Phone and watch transports sharing one plan (`linked`); the phone connects to the watch. `body`
    /// gets the phone's transport, the clock, and the phone's and the watch's end.
    private func withLinkedPair(
        _ body: (
            _ faults: FaultInjectingTransport, _ clock: ManualClock,
            _ phone: any TransportConnection, _ watch: any TransportConnection
        ) async throws -> Void
    ) async throws {
        let network = InMemoryNetwork()
        let clock = ManualClock()
        let links = FaultInjectingTransport.linked(
            phone: network.transport(for: .phone), watch: network.transport(for: .watch), clock: clock)
        try await TestKit.withServer(links.watch, on: network, role: .watch) { accepted in
            let phone = try await links.phone.connect()
            let watch = try #require(await TestKit.next(accepted))
            try await body(links.phone, clock, phone, watch)
        }
    }

    private static func bytes(_ frames: [Frame]) -> [UInt8] {
        frames.flatMap(FrameEncoder.encode)
    }

    private static let ping = Frame.ping(nonce: 1)
    private static let transferId = UUID()
    private static let reply = Frame.reply(id: 9, body: .dictionary(["a": .integer(1)]))
    private static func userInfo(_ seq: UInt64) -> Frame {
        .userInfo(seq: seq, after: seq - 1, transferId: transferId, payload: ["n": .integer(Int64(seq))])
    }

    @Test("each target against each frame kind: the frames it names are dropped, the rest arrive in order",
          arguments: FaultTargetTests.table.filter { $0.0 != .write })
    func dropsExactlyItsFrames(_ target: FaultTarget, _ hits: Set<String>) async throws {
        try await withLinkedPair { faults, _, phone, watch in
            let samples = SampleFrames.all
            faults.inject(.drop, on: target, from: .phone, count: 100)
            // Half the frames one per write, the rest in one write, as the engine batches userInfo.
            let split = samples.count / 2
            for sample in samples[..<split] { try await phone.write(FrameEncoder.encode(sample.frame)) }
            try await phone.write(Self.bytes(samples[split...].map { $0.frame }))
            await phone.close()

            var received = ReceivedFrames(watch)
            #expect(try await received.all() == samples.filter { !hits.contains($0.name) }.map { $0.frame })
            #expect(faults.pendingFaultCount == 100 - hits.count)
            var applied = faults.appliedFaults.makeAsyncIterator()
            for sample in samples where hits.contains(sample.name) {
                let report = await applied.next()
                #expect(report?.fault == .drop && report?.frame == sample.frame.type && report?.from == .phone)
            }
        }
    }

    @Test("a delayed frame holds what this side writes after it, not what came before nor the other direction")
    func delayHoldsLaterFrames() async throws {
        let network = InMemoryNetwork()
        let clock = ManualClock()
        let links = FaultInjectingTransport.linked(
            phone: network.transport(for: .phone), watch: network.transport(for: .watch), clock: clock)
        let faults = links.phone
        try await TestKit.withServer(network.transport(for: .watch), on: network, role: .watch) { accepted in
            let phone = try await faults.connect()
            let watch = try #require(await TestKit.next(accepted) as? InMemoryConnection)
            var applied = faults.appliedFaults.makeAsyncIterator()
            faults.delayNext(.message, from: .phone, by: .seconds(2))
            let message = Frame.message(id: 1, wantsReply: true, body: .dictionary([:]))
            let first = Task { try await phone.write(Self.bytes([Self.ping, message, .ping(nonce: 2)])) }
            #expect(await applied.next() == AppliedFault(fault: .delay(.seconds(2)), writeIndex: 0, frame: .message, from: .phone))
            let second = Task { try await phone.write(FrameEncoder.encode(Self.userInfo(1))) }
            await clock.waitForSleepers(count: 1)
            var atWatch = ReceivedFrames(watch)
            #expect(try await atWatch.next(1) == [Self.ping])  // written before the held frame
            #expect(watch.bufferedInboundByteCount == 0)
            // The other direction moves while the phone's frame is held.
            try await watch.write(FrameEncoder.encode(.pong(nonce: 1)))
            var atPhone = ReceivedFrames(phone)
            #expect(try await atPhone.next(1) == [.pong(nonce: 1)])
            #expect(watch.bufferedInboundByteCount == 0)

            clock.advance(by: .seconds(2))
            try await first.value
            try await second.value
            #expect(try await atWatch.next(3) == [message, .ping(nonce: 2), Self.userInfo(1)])
        }
    }

    @Test("a fault aimed from one side leaves the other side's frames alone")
    func direction() async throws {
        try await withLinkedPair { faults, _, phone, watch in
            faults.inject(.drop, on: .reply, from: .watch)
            try await phone.write(FrameEncoder.encode(Self.reply))
            var atWatch = ReceivedFrames(watch)
            #expect(try await atWatch.next(1) == [Self.reply])
            try await watch.write(Self.bytes([Self.reply, Self.ping]))
            var atPhone = ReceivedFrames(phone)
            #expect(try await atPhone.next(1) == [Self.ping])
            #expect(await TestKit.next(faults.appliedFaults) == AppliedFault(fault: .drop, writeIndex: 0, frame: .reply, from: .watch))
        }
    }

    @Test("with a count and .none ahead of it: the first two userInfo pass, the third is lost, acks untouched")
    func countAndSkip() async throws {
        try await withLinkedPair { faults, _, phone, watch in
            faults.inject(.none, on: .userInfo, from: .phone, count: 2)
            faults.inject(.drop, on: .userInfo, from: .phone)
            #expect(faults.pendingFaultCount == 3)
            let frames: [Frame] = [Self.userInfo(1), .ack(upTo: 5), Self.userInfo(2), Self.userInfo(3), .ack(upTo: 6), Self.userInfo(4)]
            try await phone.write(Self.bytes(Array(frames[..<3])))
            try await phone.write(Self.bytes(Array(frames[3...])))
            var atWatch = ReceivedFrames(watch)
            #expect(try await atWatch.next(5) == frames.filter { $0 != Self.userInfo(3) })
            #expect(faults.pendingFaultCount == 0)
            #expect(await TestKit.next(faults.appliedFaults) == AppliedFault(fault: .drop, writeIndex: 1, frame: .userInfo, from: .phone))
        }
    }

    @Test("a whole-write fault takes its write before aimed faults look at the frames in it")
    func wholeWriteFirst() async throws {
        try await withLinkedPair { faults, _, phone, watch in
            faults.inject(.drop, on: .reply, from: .phone)
            faults.inject(.none)  // the phone's next write passes whole, reply included
            try await phone.write(FrameEncoder.encode(Self.reply))
            try await phone.write(Self.bytes([Self.reply, Self.ping]))
            var atWatch = ReceivedFrames(watch)
            #expect(try await atWatch.next(2) == [Self.reply, Self.ping])
            #expect(faults.writesObserved == 2)
        }
    }

    @Test("a frame begun in an earlier write is not hit; after bytes that are not frames, nothing is")
    func partialFramesAndGarbage() async throws {
        try await withLinkedPair { faults, _, phone, watch in
            faults.inject(.drop, on: .reply, from: .phone)
            let encoded = FrameEncoder.encode(Self.reply)
            try await phone.write(Array(encoded[..<7]))
            try await phone.write(Array(encoded[7...]) + encoded)  // the end of one reply, then a whole one: lost
            try await phone.write(FrameEncoder.encode(Self.ping))
            var atWatch = ReceivedFrames(watch)
            #expect(try await atWatch.next(2) == [Self.reply, Self.ping])
            #expect(faults.pendingFaultCount == 0)

            faults.inject(.drop, on: .reply, from: .phone)
            try await phone.write([0, 0, 0, 0])  // length 0: not a frame; the stream is no longer split
            try await phone.write(encoded)
            #expect(try await TestKit.read(watch) == [0, 0, 0, 0])
            #expect(try await TestKit.read(watch) == encoded)
            #expect(faults.pendingFaultCount == 1)
        }
    }

    @Test("writeNow writes at once only when no queued fault touches the bytes and nothing is held")
    func writeNow() async throws {
        try await withLinkedPair { faults, clock, phone, watch in
            #expect(phone.writeNow(FrameEncoder.encode(Self.ping)))
            faults.inject(.delay(.seconds(1)), on: .reply, from: .phone)
            #expect(!phone.writeNow(FrameEncoder.encode(Self.reply)))
            #expect(phone.writeNow(FrameEncoder.encode(.ping(nonce: 2))))
            let held = Task { try await phone.write(FrameEncoder.encode(Self.reply)) }
            await clock.waitForSleepers(count: 1)
            #expect(!phone.writeNow(FrameEncoder.encode(.ping(nonce: 3))))  // would overtake the held reply
            clock.advance(by: .seconds(1))
            try await held.value
            var atWatch = ReceivedFrames(watch)
            #expect(try await atWatch.next(3) == [Self.ping, .ping(nonce: 2), Self.reply])
            #expect(faults.writesObserved == 3)
        }
    }
}

/// Decodes the frames arriving on a connection, in order.
struct ReceivedFrames {
    let connection: any TransportConnection
    private var decoder = FrameDecoder()

    init(_ connection: any TransportConnection) {
        self.connection = connection
    }

    /// The next `count` frames (fewer if the stream ends first).
    mutating func next(_ count: Int = .max) async throws -> [Frame] {
        var frames: [Frame] = []
        while frames.count < count {
            if let frame = try decoder.next() {
                frames.append(frame)
                continue
            }
            guard let chunk = try await TestKit.read(connection) else { break }
            decoder.append(chunk)
        }
        return frames
    }

    /// Every frame until the stream ends.
    mutating func all() async throws -> [Frame] {
        try await next()
    }
}
