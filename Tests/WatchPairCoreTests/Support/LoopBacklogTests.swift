import Synchronization
import Testing
@testable import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// The items between a socket's loop and its reader task (`LoopBacklog`), with the link's frames: the
/// loop handles items in place only while nothing waits for the task; what waits keeps the stream's
/// order; ten reads queued pause the socket and the task's taking them resumes it; a pump feeds a
/// connection that cannot hand its reads over through the same path.
@Suite("LoopBacklog")
struct LoopBacklogTests {
    /// A connection that only counts `resumeReading()`.
    final class ResumeCounter: TransportConnection {
        let resumes = Atomic<Int>(0)
        var inbound: AsyncThrowingStream<[UInt8], any Error> { AsyncThrowingStream { $0.finish() } }
        func write(_ bytes: [UInt8]) async throws {}
        func close() async {}
        var description: String { "counter" }
        func resumeReading() { resumes.add(1, ordering: .relaxed) }
    }

    static func bytes(_ frames: Frame...) -> [UInt8] { frames.flatMap(FrameEncoder.encode) }

    /// The frames a loop handler took in place; it takes pings only.
    final class InPlace: Sendable {
        let taken = Mutex<[Frame]>([])
        func handle(_ frame: inout Frame) -> Bool {
            guard case .ping = frame else { return false }
            taken.withLock { $0.append(frame) }
            return true
        }
    }

    @Test("in place while nothing waits; from the first frame the loop leaves, the rest waits in order; in place again once the task finished")
    func inPlaceOnlyWhileIdle() async throws {
        let connection = ResumeCounter()
        let backlog = LoopBacklog(decoder: FrameDecoder())
        let inPlace = InPlace()
        let reads = backlog.directReads { inPlace.handle(&$0) }
        #expect(reads.received(Self.bytes(.ping(nonce: 1), .ack(upTo: 1), .ping(nonce: 2))))
        #expect(inPlace.taken.withLock { $0 } == [.ping(nonce: 1)])
        // Something waits for the task: a ping behind it waits too.
        #expect(reads.received(Self.bytes(.ping(nonce: 3))))
        #expect(inPlace.taken.withLock { $0 } == [.ping(nonce: 1)])
        let batch = try #require(await backlog.take(resuming: connection))
        #expect(batch.items == [.ack(upTo: 1), .ping(nonce: 2), .ping(nonce: 3)])
        // Taken, not finished: the loop still queues behind the task.
        #expect(reads.received(Self.bytes(.ping(nonce: 4))))
        #expect(inPlace.taken.withLock { $0 } == [.ping(nonce: 1)])
        #expect(try #require(await backlog.take(resuming: connection)).items == [.ping(nonce: 4)])
        backlog.finished()
        #expect(reads.received(Self.bytes(.ping(nonce: 5))))
        #expect(inPlace.taken.withLock { $0 } == [.ping(nonce: 1), .ping(nonce: 5)])
        #expect(connection.resumes.load(ordering: .relaxed) == 0)
    }

    @Test("a frame split over reads is decoded whole, and waits in order behind the one before it")
    func orderAcrossReads() async throws {
        let backlog = LoopBacklog(decoder: FrameDecoder())
        let reads = backlog.directReads { _ in false }
        let encoded = Self.bytes(.ack(upTo: 1), .ack(upTo: 2))
        let cut = encoded.count - 3
        #expect(reads.received(Array(encoded[..<cut])))
        #expect(reads.received(Array(encoded[cut...])))
        #expect(try #require(await backlog.take(resuming: ResumeCounter())).items == [.ack(upTo: 1), .ack(upTo: 2)])
    }

    @Test("the tenth queued read pauses the socket; taking them resumes it, once")
    func pauseAtTheWatermark() async throws {
        let connection = ResumeCounter()
        let backlog = LoopBacklog(decoder: FrameDecoder())
        let reads = backlog.directReads { _ in false }
        for read in 1...LoopBacklog<FrameDecoder>.highWatermark {
            #expect(reads.received(Self.bytes(.ack(upTo: UInt64(read)))) == (read < LoopBacklog<FrameDecoder>.highWatermark))
        }
        #expect(connection.resumes.load(ordering: .relaxed) == 0)
        let batch = try #require(await backlog.take(resuming: connection))
        #expect(batch.items.count == LoopBacklog<FrameDecoder>.highWatermark)
        #expect(connection.resumes.load(ordering: .relaxed) == 1)
        backlog.finished()
        #expect(reads.received(Self.bytes(.ack(upTo: 11))))
        _ = await backlog.take(resuming: connection)
        #expect(connection.resumes.load(ordering: .relaxed) == 1)
    }

    @Test("a broken frame stops decoding after the good ones, before the end; a stopped backlog takes no reads")
    func brokenFrameEndAndStop() async throws {
        let backlog = LoopBacklog(decoder: FrameDecoder())
        let reads = backlog.directReads { _ in false }
        var bytes = Self.bytes(.ack(upTo: 1), .ack(upTo: 2))
        bytes[bytes.count - 1] ^= 0xFF
        _ = reads.received(bytes)
        // Nothing is decoded after a broken frame: the read pauses the socket.
        #expect(!reads.received(Self.bytes(.ack(upTo: 3))))
        reads.ended(.success(()))
        let batch = try #require(await backlog.take(resuming: ResumeCounter()))
        #expect(batch.items == [.ack(upTo: 1)])
        #expect(batch.failure != nil)
        #expect(batch.end != nil)

        let stopped = LoopBacklog(decoder: FrameDecoder())
        stopped.stop()
        #expect(!stopped.directReads { _ in true }.received(Self.bytes(.ping(nonce: 1))))
    }

    @Test("the decoder at the end tells a stream that ended inside a frame")
    func endInsideAFrame() throws {
        let backlog = LoopBacklog(decoder: FrameDecoder())
        let reads = backlog.directReads { _ in true }
        let bytes = Self.bytes(.ping(nonce: 7))
        _ = reads.received(Array(bytes.dropLast()))
        #expect(throws: FrameError.self) { try backlog.decoder.finish() }
        _ = reads.received([bytes.last!])
        try backlog.decoder.finish()
    }

    @Test("a pump feeds inbound through the same reads: in place, then in order, paused at the watermark and resumed by the take, then the end")
    func pumpedInbound() async throws {
        let connection = ResumeCounter()
        let backlog = LoopBacklog(decoder: FrameDecoder())
        let inPlace = InPlace()
        let reads = backlog.directReads { inPlace.handle(&$0) }
        let acks = (1...LoopBacklog<FrameDecoder>.highWatermark + 2).map { Frame.ack(upTo: UInt64($0)) }
        let (inbound, input) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        input.yield(Self.bytes(.ping(nonce: 1)))
        for ack in acks { input.yield(Self.bytes(ack)) }
        input.finish()
        let pump = Task { await backlog.pump(inbound, into: reads, on: MainActor.shared) }
        // Past the watermark the pump waits for the take: without the resume this never ends.
        let (taken, ended) = try await withTimeout {
            var taken: [Frame] = []
            while let batch = await backlog.take(resuming: connection) {
                taken += batch.items
                if case .success = batch.end { return (taken, true) }
                backlog.finished()
            }
            return (taken, false)
        }
        await pump.value
        #expect(inPlace.taken.withLock { $0 } == [.ping(nonce: 1)])
        #expect(taken == acks)
        #expect(ended)
    }

    @Test("a pump paused at the watermark ends when the task stops reading, taking nothing more")
    func pumpEndsWhenStopped() async throws {
        let backlog = LoopBacklog(decoder: FrameDecoder())
        let reads = backlog.directReads { _ in false }
        let (inbound, input) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        for read in 1...LoopBacklog<FrameDecoder>.highWatermark + 1 { input.yield(Self.bytes(.ack(upTo: UInt64(read)))) }
        let pump = Task { await backlog.pump(inbound, into: reads, on: MainActor.shared) }
        let first = try #require(await backlog.take(resuming: ResumeCounter()))
        backlog.stop()
        try await withTimeout { await pump.value }
        #expect(first.items.allSatisfy { if case .ack = $0 { true } else { false } })
        input.finish()
    }

    /// A connection that cannot hand its reads over: its reads are what `inbound` yields.
    final class Streamed: TransportConnection {
        let inbound: AsyncThrowingStream<[UInt8], any Error>
        init(_ reads: [[UInt8]], then end: (any Error)? = nil) {
            inbound = AsyncThrowingStream { input in
                for read in reads { input.yield(read) }
                input.finish(throwing: end)
            }
        }
        func write(_ bytes: [UInt8]) async throws {}
        func close() async {}
        var description: String { "streamed" }
    }

    static let broken = TransportError(.connectionClosed, "reset by peer")
    static let corrupt: [UInt8] = {
        var frame = bytes(.ack(upTo: 2))
        frame[frame.count - 1] ^= 0xFF
        return frame
    }()
    static let corruptFailure: FrameError? = {
        var decoder = FrameDecoder()
        return decoder.decode(corrupt).failure
    }()

    /// The reads, after how many frames `serve` stops, then the frames the loop took in place, the frames
    /// served and the end.
    static let reads: [(input: Streamed, stopAt: Int?, inPlace: [Frame], served: [Frame], end: LoopBacklog<FrameDecoder>.End)] = [
        (Streamed([bytes(.ping(nonce: 1), .ack(upTo: 1)), bytes(.ack(upTo: 2))]), nil, [.ping(nonce: 1)], [.ack(upTo: 1), .ack(upTo: 2)], .closed),
        (Streamed([bytes(.ack(upTo: 1)) + corrupt, bytes(.ack(upTo: 3))]), nil, [], [.ack(upTo: 1)],
         .failed(corruptFailure!)),
        (Streamed([bytes(.ack(upTo: 1))], then: broken), nil, [], [.ack(upTo: 1)], .broken(broken)),
        (Streamed([bytes(.ack(upTo: 1)), bytes(.ack(upTo: 2))]), 1, [], [.ack(upTo: 1)], .stopped),
    ]

    @Test("read: the loop takes what it can in place, the task the rest in order until serve stops, then the end by name", arguments: reads.indices)
    func readToTheEnd(_ index: Int) async throws {
        let (input, stopAt, inPlace, served, end) = Self.reads[index]
        let backlog = LoopBacklog(decoder: FrameDecoder())
        let (loop, task) = (InPlace(), InPlace())
        let isolation = ExecutorIsolation(QueueExecutor(label: "test.loop"))
        let ended = try await withTimeout {
            await backlog.read(input, on: isolation.executor, isolation: isolation, inPlace: { loop.handle(&$0) }) { batch in
                let count = task.taken.withLock { taken in
                    taken += batch
                    return taken.count
                }
                return stopAt.map { count < $0 } ?? true
            }
        }
        #expect(ended == end)
        #expect(loop.taken.withLock { $0 } == inPlace)
        #expect(task.taken.withLock { $0 } == served)
    }
}
