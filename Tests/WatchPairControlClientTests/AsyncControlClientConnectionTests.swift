import Foundation
import Testing
import WatchPairWire

@testable import WatchPairControlClient

/// The async face against a scripted server: lines kept for later calls, writes that do not hold up
/// reads, cancellation, the end of the stream, and no task ever blocking Swift's cooperative pool.
@Suite("Async control connection", .timeLimit(.minutes(3)))
struct AsyncControlConnectionTests {
    @Test func linesNotAskedForStayForLaterCalls() async throws {
        try await withServer({ _, side in
            _ = side.readLine()
            for line in [ControlResponse.streamEvent(1, "a", .null), .streamEvent(1, "b", .null), .success(1)] {
                side.write(line.line + "\n")
            }
            _ = side.readLine()
        }) { server in
            try await AsyncControlClientConnection.withConnection(to: server.path) { connection async throws in
                #expect(try await connection.call(ControlResponse.success(1), id: 1) == .success(1))
                #expect(try await connection.next { $0.event == "b" }.event == "b")
                #expect(try await connection.next { _ in true }.event == "a")
            }
        }
    }

    /// A write the server takes slowly (it answers first, then reads) does not keep the answer from
    /// being read.
    @Test func aLargeWriteDoesNotHoldUpReads() async throws {
        let big = [UInt8](repeating: UInt8(ascii: "x"), count: 4 << 20) + [UInt8(ascii: "\n")]
        try await withServer({ _, side in
            side.write(ControlResponse.success(1).line + "\n")
            let line = side.readLine()
            side.write(ControlResponse.success(line?.utf8.count == 4 << 20 ? 2 : 3).line + "\n")
            _ = side.readLine()
        }) { server in
            try await AsyncControlClientConnection.withConnection(to: server.path) { connection async throws in
                async let written: Void = connection.write(big)
                #expect(try await connection.response(to: 1) == .success(1))
                try await written
                #expect(try await connection.next { _ in true } == .success(2))
            }
        }
    }

    @Test func aCancelledWaitEnds() async throws {
        try await withServer({ _, side in _ = side.readLine() }) { server in
            let connection = try await AsyncControlClientConnection.connect(to: server.path)
            let waiting = Task { try await connection.next { _ in true } }
            waiting.cancel()
            await #expect(throws: CancellationError.self) { try await waiting.value }
            await connection.close()
            await #expect(throws: ControlClientError.closed) { try await connection.write([1]) }
        }
    }

    @Test func readToEndReturnsTheLinesNobodyTook() async throws {
        try await withServer({ _, side in
            side.write(ControlResponse.success(1).line + "\n" + ControlResponse.success(2).line + "\n")
        }) { server in
            try await AsyncControlClientConnection.withConnection(to: server.path) { connection async throws in
                #expect(try await connection.readToEnd() == [.success(1), .success(2)])
                await #expect(throws: ControlClientError.closed) { try await connection.next { _ in true } }
            }
        }
    }

    @Test func aMissingSocketFailsTheConnect() async {
        await #expect(throws: ControlClientError.system(operation: "connect", errno: ENOENT)) {
            try await AsyncControlClientConnection.connect(to: "/nonexistent/wpcc/ctl")
        }
    }

    /// More connections wait than the pool has threads, and the task that releases them still runs: a
    /// wait holds no thread of the pool (with blocking reads on it, this would deadlock).
    @Test func waitingConnectionsLeaveThePoolFree() async throws {
        let waiters = 8
        let go = DispatchSemaphore(value: 0)
        try await withServer(connections: waiters + 1, { index, side in
            if index == waiters {
                _ = side.readLine()
                for _ in 0..<waiters { go.signal() }
            } else {
                go.wait()
                side.write(ControlResponse.success(Int64(index)).line + "\n")
            }
            _ = side.readLine()
        }) { server in
            var connections: [AsyncControlClientConnection] = []
            for _ in 0..<waiters { connections.append(try await AsyncControlClientConnection.connect(to: server.path)) }
            try await withThrowingTaskGroup(of: Int64?.self) { group in
                for connection in connections { group.addTask { try await connection.next { _ in true }.id } }
                try await AsyncControlClientConnection.withConnection(to: server.path) { starter in
                    try await starter.write(Array("go\n".utf8))
                }
                var answered: [Int64?] = []
                for try await id in group { answered.append(id) }
                #expect(Set(answered) == Set((0..<Int64(waiters)).map { $0 }))
            }
            for connection in connections { await connection.close() }
        }
    }
}
