import Testing

@testable import WatchPairControlClient

@Suite("Line framing")
struct LineBufferTests {
    private func lines(_ buffer: inout LineBuffer) throws -> [String] {
        var result: [String] = []
        while let line = try buffer.nextLine() { result.append(String(decoding: line, as: UTF8.self)) }
        return result
    }

    @Test func mergedLinesComeOutOneByOne() throws {
        var buffer = LineBuffer(maxLineBytes: 100)
        buffer.append(Array("{\"a\":1}\n{\"b\":2}\n{\"c\"".utf8))
        #expect(try lines(&buffer) == ["{\"a\":1}", "{\"b\":2}"])
        #expect(buffer.pendingByteCount == 4)
        buffer.append(Array(":3}\n".utf8))
        #expect(try lines(&buffer) == ["{\"c\":3}"])
        #expect(buffer.pendingByteCount == 0)
    }

    @Test(arguments: [1, 2, 3, 7])
    func aLineSplitAcrossChunksIsReassembled(chunkSize: Int) throws {
        let text = Array("first line\nsecond\r\n\nthird\n".utf8)
        var buffer = LineBuffer(maxLineBytes: 64)
        var result: [String] = []
        for start in stride(from: 0, to: text.count, by: chunkSize) {
            buffer.append(text[start..<min(start + chunkSize, text.count)])
            result += try lines(&buffer)
        }
        #expect(result == ["first line", "second", "", "third"])
    }

    @Test func aLineOfExactlyTheLimitIsAccepted() throws {
        var buffer = LineBuffer(maxLineBytes: 8)
        buffer.append(Array("12345678\n".utf8))
        #expect(try lines(&buffer) == ["12345678"])
    }

    @Test func aCompleteLineOverTheLimitThrows() {
        var buffer = LineBuffer(maxLineBytes: 8)
        buffer.append(Array("123456789\nok\n".utf8))
        #expect(throws: LineBuffer.LineTooLong(limit: 8)) { try buffer.nextLine() }
    }

    @Test func anUnfinishedLineOverTheLimitThrowsBeforeItsNewlineArrives() throws {
        var buffer = LineBuffer(maxLineBytes: 8)
        buffer.append(Array("1234".utf8))
        #expect(try buffer.nextLine() == nil)
        buffer.append(Array("56789".utf8))
        #expect(throws: LineBuffer.LineTooLong(limit: 8)) { try buffer.nextLine() }
    }

    @Test func consumedLinesDoNotAccumulate() throws {
        var buffer = LineBuffer(maxLineBytes: 16)
        buffer.append(Array("start".utf8))
        for n in 0..<10_000 {
            // Always a partial line left behind, so the buffer is never simply emptied.
            buffer.append(Array("\nline \(n % 10)\npart".utf8))
            #expect(try buffer.nextLine() != nil)
            #expect(try buffer.nextLine().map(Array.init) == Array("line \(n % 10)".utf8))
            #expect(try buffer.nextLine() == nil)
        }
        #expect(buffer.storedByteCount < 64)
    }

    @Test func anEmptiedBufferKeepsItsStorageUpToTheRetainedCapacity() throws {
        var buffer = LineBuffer(maxLineBytes: 1 << 20, retainedCapacity: 1024)
        buffer.append(Array(repeating: UInt8(ascii: "x"), count: 100) + [UInt8(ascii: "\n")])
        #expect(try buffer.nextLine()?.count == 100)
        #expect(!buffer.hasCompleteLine)
        buffer.append(Array("a\nb".utf8))
        #expect(buffer.storedByteCount == 3, "the consumed line was dropped on append")
        #expect(buffer.hasCompleteLine)
        #expect(try lines(&buffer) == ["a"])
        #expect(!buffer.hasCompleteLine && buffer.pendingByteCount == 1)
    }
}
