import Glibc
import Testing
import WatchPairWire

@testable import WatchPairControlClient

/// The blocking core against a scripted server on a real Unix socket: framing, matching, failures.
@Suite("Control connection", .timeLimit(.minutes(3)))
struct ControlConnectionTests {
    /// Read when a test starts waiting: one fixed deadline had passed for tests that start late in a busy run.
    static var soon: ContinuousClock.Instant { .now.advanced(by: .seconds(60)) }

    @Test func theResponseIsFoundAmongEventsOtherResponsesAndBlankLines() async throws {
        try await withServer({ _, side in
            _ = side.readLine()
            side.write(#"{"data":{},"event":"message","id":1}"# + "\n" + #"{"id":7,"ok":true}"# + "\n \n")
            side.write(#"{"id":1,"ok":true,"result":{"n":1}}"# + "\r\n")
        }) { server in
            let connection = try ControlClientConnection.connect(to: server.path)
            try connection.send(ControlResponse.success(1))
            let response = try #require(try connection.response(to: 1, until: Self.soon))
            #expect(response == .success(1, .object(["n": .integer(1)])))
        }
    }

    @Test(arguments: [false, true])
    func anErrorWithoutIdAnswersOnlyASoleRequest(soleRequest: Bool) async throws {
        try await withServer({ _, side in
            side.write(ControlResponse.failure(nil, WCFailure(.invalidParameter, "Not JSON.")).line + "\n")
        }) { server in
            let connection = try ControlClientConnection.connect(to: server.path)
            if soleRequest {
                #expect(try connection.response(to: 1, soleRequest: true, until: Self.soon)?.error?.code == 7008)
            } else {
                #expect(throws: ControlClientError.closed) { try connection.response(to: 1, until: Self.soon) }
            }
        }
    }

    @Test func aLineThatIsNotAResponseEndsTheStream() async throws {
        try await withServer({ _, side in side.write("[1]\n") }) { server in
            let connection = try ControlClientConnection.connect(to: server.path)
            #expect(throws: ControlClientError.invalidLine(problem: "Not a JSON object.", excerpt: "[1]")) {
                try connection.read(until: Self.soon)
            }
        }
    }

    @Test func aLineOverTheLimitEndsTheStream() async throws {
        try await withServer({ _, side in side.write(String(repeating: "x", count: 40) + "\n") }) { server in
            let connection = try ControlClientConnection.connect(to: server.path, maxResponseLineBytes: 16)
            #expect(throws: ControlClientError.lineTooLong(limit: 16)) { try connection.read(until: Self.soon) }
        }
    }

    @Test func aRequestOverTheDaemonsLimitIsNotSent() async throws {
        try await withServer({ _, side in _ = side.readLine() }) { server in
            let connection = try ControlClientConnection.connect(to: server.path)
            let huge = ControlResponse.success(1, .string(String(repeating: "x", count: ControlClientConnection.maxRequestLineBytes)))
            #expect(throws: ControlClientError.requestTooLong(bytes: huge.lineBytes.count, limit: ControlClientConnection.maxRequestLineBytes)) {
                try connection.send(huge)
            }
        }
    }

    /// Two lines in one read: the second is readable at once though `poll` would see nothing; an
    /// interrupt is reported after the connections.
    @Test func readableSeesBufferedLinesAndTheInterrupt() async throws {
        try await withServer({ _, side in
            side.write(#"{"id":1,"ok":true}"# + "\n" + #"{"id":2,"ok":true}"# + "\n")
            _ = side.readLine()
        }) { server in
            let connection = try ControlClientConnection.connect(to: server.path)
            #expect(try connection.read(until: Self.soon)?.id == 1)
            #expect(try ControlClientConnection.readable([connection], until: ContinuousClock.now) == [0])
            #expect(try connection.read(until: Self.soon)?.id == 2)
            var pipe: [Int32] = [-1, -1]
            #expect(Glibc.pipe(&pipe) == 0)
            defer { pipe.forEach { _ = close($0) } }
            #expect(try ControlClientConnection.readable([connection], interrupt: pipe[0], until: ContinuousClock.now).isEmpty)
            #expect(Glibc.write(pipe[1], "!", 1) == 1)
            #expect(try ControlClientConnection.readable([connection], interrupt: pipe[0], until: .never) == [1])
            #expect(try connection.read(until: Self.soon, interrupt: pipe[0]) == nil)
            connection.shutdownWrite()
        }
    }

    @Test func connectFailuresKeepTheirErrno() {
        #expect(throws: ControlClientError.system(operation: "connect", errno: ENOENT)) {
            try ControlClientConnection.connect(to: "/nonexistent/wpcc/ctl")
        }
        #expect(throws: ControlClientError.system(operation: "connect", errno: ENAMETOOLONG)) {
            try ControlClientConnection.connect(to: "/" + String(repeating: "x", count: UnixSocketAddress.maxPathBytes))
        }
    }
}
