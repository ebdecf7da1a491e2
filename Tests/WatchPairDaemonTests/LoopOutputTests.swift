import Foundation
import Glibc
import Synchronization
import Testing

@testable import WatchPairHost

/// Writes from the socket loop never wait for stderr's reader: what a full pipe cannot take goes to the
/// output's thread, in order, within its bound.
@Suite("Writes that never wait")
struct LoopOutputTests {
    /// Reads `descriptor` to its end on a thread of its own (not the tests' task pool, which `drain()`
    /// may block); the returned function waits for the end and gives every byte read.
    static func readAll(_ descriptor: Int32) -> @Sendable () -> [UInt8] {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<[UInt8]>([])
        Thread.detachNewThread {
            var all: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count <= 0 { break }
                all += buffer.prefix(count)
            }
            result.withLock { $0 = all }
            done.signal()
        }
        return {
            done.wait()
            return result.withLock { $0 }
        }
    }

    static func bytes(_ count: Int, _ seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) ^ seed }
    }

    @Test func aPipeNobodyReadsDoesNotStopTheWriterAndGetsEveryByteInOrder() {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let target = NoWaitWrite(descriptor: ends[1])
        #expect(target.kind == .other)
        let output = LoopOutput()
        // 40 writes of 4 KiB: more than the pipe's 64 KiB, all made while nothing reads.
        let chunks = (0..<40).map { Self.bytes(4096, UInt8($0)) }
        for chunk in chunks { target.write(chunk, through: output) }
        let reader = Self.readAll(ends[0])
        output.drain()
        close(ends[1])
        #expect(reader() == chunks.flatMap { $0 })
        #expect(output.dropped == 0)
        close(ends[0])
    }

    @Test func pastTheBoundWritesAreDroppedAndCounted() {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let target = NoWaitWrite(descriptor: ends[1])
        let notices = Mutex<[Int]>([])
        let output = LoopOutput(limit: 2) { dropped in notices.withLock { $0.append(dropped) } }
        // The first write fills the pipe; its rest blocks the thread, one more write may wait, two are dropped.
        let first = Self.bytes(100_000, 1)
        let second = Self.bytes(10, 2)
        target.write(first, through: output)
        target.write(second, through: output)
        target.write(Self.bytes(10, 3), through: output)
        target.write(Self.bytes(10, 4), through: output)
        #expect(output.dropped == 2)
        let reader = Self.readAll(ends[0])
        output.drain()
        close(ends[1])
        #expect(reader() == first + second)
        // Told once, after the thread caught up, with both drops.
        #expect(notices.withLock { $0 } == [2])
        close(ends[0])
    }

    @Test func kinds() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        #expect(NoWaitWrite(descriptor: pair[0]).kind == .socket)
        close(pair[0])
        close(pair[1])
        let null = open("/dev/null", O_WRONLY)
        #expect(NoWaitWrite(descriptor: null).kind == .file)
        close(null)
    }
}
