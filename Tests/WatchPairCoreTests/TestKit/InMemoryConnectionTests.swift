import Testing
import WatchPairCore
import WatchPairTesting

@Suite("InMemoryConnection", .timeLimit(.minutes(3)))
struct InMemoryConnectionTests {
    @Test("bytes flow both ways, one chunk per write, in order")
    func bytesBothWays() async throws {
        let (a, b) = InMemoryConnection.pair()
        try await a.write([1, 2, 3])
        try await a.write([])  // Delivers nothing.
        try await a.write([4])
        try await b.write([9, 8])

        #expect(try await TestKit.read(b) == [1, 2, 3])
        #expect(try await TestKit.read(b) == [4])
        #expect(try await TestKit.read(a) == [9, 8])
        #expect(a.bufferedInboundByteCount == 0)
        #expect(b.bufferedInboundByteCount == 0)
    }

    @Test("a reader waiting before the write receives it")
    func readerWaitingFirst() async throws {
        let (a, b) = InMemoryConnection.pair()
        let reader = Task { try await TestKit.read(b) }
        try await a.write([7, 7])
        #expect(try await reader.value == [7, 7])
    }

    @Test("closing one end: the other end reads what was sent, then end of stream; writes fail both ways")
    func closeSemantics() async throws {
        let (a, b) = InMemoryConnection.pair()
        try await a.write([1, 2])
        try await b.write([5])
        await a.close()

        #expect(a.isClosed && b.isClosed)
        #expect(try await TestKit.read(b) == [1, 2])
        #expect(try await TestKit.read(b) == nil)
        #expect(try await TestKit.read(a) == nil)  // This end's unread bytes are discarded.
        #expect(await TestKit.errorKind { try await a.write([3]) } == .connectionClosed)
        #expect(await TestKit.errorKind { try await b.write([3]) } == .connectionClosed)

        await a.close()  // Idempotent.
        await b.close()
        #expect(try await TestKit.read(b) == nil)
    }

    @Test("a close wakes a reader waiting on either end")
    func closeWakesWaitingReaders() async throws {
        let (a, b) = InMemoryConnection.pair()
        let readerA = Task { try await TestKit.read(a) }
        let readerB = Task { try await TestKit.read(b) }
        await b.close()
        #expect(try await readerA.value == nil)
        #expect(try await readerB.value == nil)
    }

    @Test("a writer suspends while its bytes would exceed the 1 MiB bound, and resumes as the reader drains")
    func backpressureBound() async throws {
        #expect(InMemoryConnection.bufferLimit == 1 << 20)
        let (a, b) = InMemoryConnection.pair()
        let full = [UInt8](repeating: 0xAB, count: InMemoryConnection.bufferLimit)
        try await a.write(full)  // Exactly the limit: admitted.
        #expect(b.bufferedInboundByteCount == InMemoryConnection.bufferLimit)

        let writer = Task { try await a.write([1]) }
        await a.waitForSuspendedWrites(count: 1)
        #expect(a.suspendedWriteCount == 1)
        #expect(b.bufferedInboundByteCount == InMemoryConnection.bufferLimit)  // The byte is held back.

        #expect(try await TestKit.read(b) == full)
        try await writer.value
        #expect(a.suspendedWriteCount == 0)
        #expect(try await TestKit.read(b) == [1])
    }

    @Test("a single write larger than the bound passes when nothing is unread")
    func oversizedWriteIntoEmptyPipe() async throws {
        let (a, b) = InMemoryConnection.pair()
        let big = [UInt8](repeating: 1, count: InMemoryConnection.bufferLimit * 2)
        try await a.write(big)
        #expect(b.bufferedInboundByteCount == big.count)
        #expect(try await TestKit.read(b) == big)
    }

    @Test("suspended writes fail when the connection closes, and when cancelled send nothing")
    func suspendedWritesOnCloseAndCancel() async throws {
        let (a, b) = InMemoryConnection.pair()
        try await a.write([UInt8](repeating: 0, count: InMemoryConnection.bufferLimit))

        let cancelled = Task { try await a.write([1]) }
        await a.waitForSuspendedWrites(count: 1)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(a.suspendedWriteCount == 0)

        let closed = Task { try await a.write([2]) }
        await a.waitForSuspendedWrites(count: 1)
        await b.close()
        #expect(await TestKit.errorKind { try await closed.value } == .connectionClosed)
    }

    @Test("cancelling a reader finishes its inbound without consuming bytes")
    func readerCancellation() async throws {
        let (a, b) = InMemoryConnection.pair()
        let reader = Task { try await TestKit.read(b) }
        reader.cancel()
        #expect(try await reader.value == nil)
        try await a.write([1])
        #expect(b.bufferedInboundByteCount == 1)
    }
}
