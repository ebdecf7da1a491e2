import Glibc
import Logging
import Synchronization
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairTransport
import WatchPairWire

@Suite("UnixSocketTransport over real sockets")
struct UnixSocketTransportTests {
    /// A transport listening on `dir/a.sock` whose peer is `dir/b.sock`, and one the other way round.
    static func pair(
        _ dir: TemporaryDirectory,
        serverUIDs: Set<UInt32> = [ownUID],
        clientUIDs: Set<UInt32> = [ownUID],
        logger: Logger = Logger(label: "test")
    ) -> (server: UnixSocketTransport, client: UnixSocketTransport) {
        let server = UnixSocketTransport(
            configuration: .init(
                listener: .bind(path: dir("a.sock")),
                peerLinkPath: dir("b.sock"),
                peerControlPath: dir("b.ctl"),
                allowedUIDs: serverUIDs
            ),
            logger: logger
        )
        let client = UnixSocketTransport(
            configuration: .init(
                listener: .none,
                peerLinkPath: dir("a.sock"),
                peerControlPath: dir("a.ctl"),
                allowedUIDs: clientUIDs
            ),
            logger: logger
        )
        return (server, client)
    }

    @Test("bytes travel both ways; the self-bound socket has the configured mode")
    func roundTrip() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (server, client) = Self.pair(dir)
        let serving = try await startServing(server, echoHandler)

        var info = stat()
        #expect(stat(dir("a.sock"), &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)

        let connection = try await withTimeout { try await client.connect() }
        let unix = try #require(connection as? UnixSocketConnection)
        #expect(unix.peerCredentials.uid == ownUID)
        #expect(unix.peerCredentials.pid == getpid())
        #expect(connection.description == "unix:\(dir("a.sock")) pid=\(getpid()) uid=\(ownUID)")

        try await connection.write(Array("hello".utf8))
        let echoed = try await withTimeout { try await readBytes(connection, count: 5) }
        #expect(echoed == Array("hello".utf8))

        await connection.close()
        try await stopServing(serving)
    }

    @Test("1 MiB arrives complete and in order")
    func largePayload() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (server, client) = Self.pair(dir)
        let serving = try await startServing(server, echoHandler)
        let connection = try await client.connect()

        let payload = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let echoed = try await withTimeout {
            try await withThrowingTaskGroup(of: [UInt8].self) { group in
                group.addTask {
                    // Several writes of uneven size, to check ordering across writes too.
                    var offset = 0
                    for size in [1, 1000, 300_000, 65_536, 700_000] {
                        let end = min(offset + size, payload.count)
                        try await connection.write(Array(payload[offset..<end]))
                        offset = end
                    }
                    try await connection.write(Array(payload[offset...]))
                    return []
                }
                group.addTask { try await readBytes(connection, count: payload.count) }
                var result: [UInt8] = []
                for try await bytes in group where !bytes.isEmpty { result = bytes }
                return result
            }
        }
        #expect(echoed.count == payload.count)
        #expect(echoed == payload)

        await connection.close()
        try await stopServing(serving)
    }

    @Test("flush before close: a slow reader still gets every byte; without it the unread tail is dropped",
          arguments: [true, false])
    func flushBeforeClose(flushes: Bool) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (server, client) = Self.pair(dir)
        let total = 4 << 20
        let finishing = AsyncSignal()
        // One write of 4 MiB into an idle connection is taken at once (writeNow); the kernel holds far less,
        // so the connection closes with most of it still waiting in NIO unless the handler flushes.
        let serving = try await startServing(server) { connection in
            #expect(connection.writeNow([UInt8](repeating: 7, count: total)))
            finishing.fire()
            if flushes { await connection.flush() }
        }
        let connection = try await client.connect()
        await finishing.wait(after: 0)
        let received = try await withTimeout { try await readToEnd(connection) }
        if flushes {
            #expect(received.count == total)
        } else {
            #expect(received.count < total, "what NIO still held at close is dropped")
        }
        await connection.close()
        try await stopServing(serving)
    }

    @Test("writeNow writes while the channel is writable, and refuses (writing nothing) after close")
    func writeNow() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (server, client) = Self.pair(dir)
        let serving = try await startServing(server, echoHandler)
        let connection = try await client.connect()
        #expect(connection.writeNow([1, 2, 3]))
        #expect(try await withTimeout { try await readBytes(connection, count: 3) } == [1, 2, 3])
        await connection.close()
        #expect(!connection.writeNow([4]))
        try await stopServing(serving)
    }

    @Test("serve returns when cancelled and unlinks its socket file")
    func cancelUnlinks() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (server, client) = Self.pair(dir)
        let serving = try await startServing(server, echoHandler)
        #expect(fileExists(dir("a.sock")))

        try await stopServing(serving)
        #expect(!fileExists(dir("a.sock")))
        await #expect(throws: TransportError.self) { _ = try await client.connect() }
    }

    @Test("a stale socket file nobody listens on is replaced")
    func staleSocketReplaced() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try makeStaleSocketFile(at: dir("a.sock"))
        #expect(fileExists(dir("a.sock")))

        let (server, client) = Self.pair(dir)
        let serving = try await startServing(server, echoHandler)
        let connection = try await client.connect()
        try await connection.write([1, 2, 3])
        #expect(try await withTimeout { try await readBytes(connection, count: 3) } == [1, 2, 3])
        await connection.close()
        try await stopServing(serving)
    }

    @Test("a live listener is not stolen: a second serve on its path throws listenFailed")
    func liveListenerKept() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (server, client) = Self.pair(dir)
        let serving = try await startServing(server, echoHandler)

        let (intruder, _) = Self.pair(dir)
        let error = await #expect(throws: TransportError.self) {
            try await withTimeout { try await intruder.serve { _ in Issue.record("the intruder accepted a connection") } }
        }
        #expect(error?.kind == .listenFailed)
        #expect(error?.detail.contains("another process listens on") == true)

        // The first server still owns the path and works.
        let connection = try await client.connect()
        try await connection.write([9])
        #expect(try await withTimeout { try await readBytes(connection, count: 1) } == [9])
        await connection.close()
        try await stopServing(serving)
    }

    @Test("a path that exists and is not a socket is never removed")
    func regularFileKept() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let fd = open(dir("a.sock"), O_CREAT | O_WRONLY, 0o600)
        close(fd)
        let (server, _) = Self.pair(dir)
        let error = await #expect(throws: TransportError.self) { try await withTimeout { try await server.serve { _ in } } }
        #expect(error?.kind == .listenFailed)
        #expect(fileExists(dir("a.sock")))
    }

    @Test("an adopted listening fd is served, kept open and never unlinked")
    func adoptDescriptor() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let listeningFD = try rawSocket(boundAt: dir("a.sock"), listening: true)
        defer { close(listeningFD) }
        let server = UnixSocketTransport(
            configuration: .init(
                listener: .adopt(fileDescriptor: listeningFD),
                peerLinkPath: dir("b.sock"),
                peerControlPath: dir("b.ctl")
            ),
            logger: Logger(label: "test")
        )
        let (_, client) = Self.pair(dir)

        for round in 0..<2 {  // serving twice works: serve only ever closed its duplicate
            let serving = try await startServing(server, echoHandler)
            let connection = try await client.connect()
            #expect(connection.description.hasPrefix("unix:\(dir("a.sock")) "))
            try await connection.write([UInt8(round)])
            #expect(try await withTimeout { try await readBytes(connection, count: 1) } == [UInt8(round)])
            await connection.close()
            try await stopServing(serving)
            #expect(fileExists(dir("a.sock")))
            #expect(fcntl(listeningFD, F_GETFD) >= 0)
        }
    }

    @Test("adopting something that is not a listening Unix socket throws listenFailed")
    func adoptInvalidDescriptor() async throws {
        let server = UnixSocketTransport(
            configuration: .init(listener: .adopt(fileDescriptor: 987_654), peerLinkPath: "/x", peerControlPath: "/y"),
            logger: Logger(label: "test")
        )
        let error = await #expect(throws: TransportError.self) { try await withTimeout { try await server.serve { _ in } } }
        #expect(error?.kind == .listenFailed)
        #expect(error?.detail.contains("errno 9") == true)  // EBADF
    }

    @Test("connect to a missing or refusing path throws peerUnavailable with the errno")
    func connectUnavailable() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (_, client) = Self.pair(dir)

        let missing = await #expect(throws: TransportError.self) { _ = try await client.connect() }
        #expect(missing?.kind == .peerUnavailable)
        #expect(missing?.detail.contains("errno \(ENOENT)") == true)

        try makeStaleSocketFile(at: dir("a.sock"))
        let refused = await #expect(throws: TransportError.self) { _ = try await client.connect() }
        #expect(refused?.kind == .peerUnavailable)
        #expect(refused?.detail.contains("errno \(ECONNREFUSED)") == true)
    }

    @Test("an accepted peer whose uid is not allowed is closed before the handler runs, and logged")
    func acceptSideRejection() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let logs = LogRecorder()
        let (server, client) = Self.pair(dir, serverUIDs: [otherUID], logger: logs.logger)
        let handlerRuns = Mutex(0)
        let serving = try await startServing(server) { _ in handlerRuns.withLock { $0 += 1 } }

        let connection = try await client.connect()
        let received = try await withTimeout { try await readToEnd(connection) }
        #expect(received.isEmpty)
        try await stopServing(serving)  // all child tasks have ended

        #expect(handlerRuns.withLock { $0 } == 0)
        let warning = logs.all.first { $0.level == .warning }
        #expect(warning?.metadata["uid"] == "\(ownUID)")
        #expect(warning?.metadata["pid"] == "\(getpid())")
    }

    @Test("connect rejects a listener whose uid is not allowed; the server keeps serving")
    func connectSideRejection() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (server, picky) = Self.pair(dir, clientUIDs: [otherUID])
        let serving = try await startServing(server, echoHandler)

        let error = await #expect(throws: TransportError.self) { _ = try await picky.connect() }
        #expect(error?.kind == .credentialsRejected)
        #expect(error?.detail.contains("uid=\(ownUID)") == true)

        let (_, client) = Self.pair(dir)
        let connection = try await client.connect()
        try await connection.write([5])
        #expect(try await withTimeout { try await readBytes(connection, count: 1) } == [5])
        await connection.close()
        try await stopServing(serving)
    }

    @Test("a client that writes and hangs up at once is still served its bytes")
    func writeAndHangUp() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (server, _) = Self.pair(dir)
        let (received, receivedContinuation) = AsyncStream.makeStream(of: [UInt8].self)
        let serving = try await startServing(server) { connection in
            receivedContinuation.yield((try? await readToEnd(connection)) ?? [99])
        }
        // A raw client: connect, write, close, before the server may even have accepted.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let rc = UnixSocketAddress(path: dir("a.sock"))?.withSockaddr { connect(fd, $0, $1) }
        #expect(rc == 0)
        #expect(write(fd, [1, 2, 3] as [UInt8], 3) == 3)
        close(fd)
        #expect(try await withTimeout { await received.first { _ in true } } == [1, 2, 3])
        try await stopServing(serving)
    }

    @Test("close is idempotent, finishes inbound, and later writes throw connectionClosed")
    func closeSemantics() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (server, client) = Self.pair(dir)
        let serving = try await startServing(server, echoHandler)
        let connection = try await client.connect()

        await connection.close()
        await connection.close()
        let error = await #expect(throws: TransportError.self) { try await connection.write([1]) }
        #expect(error?.kind == .connectionClosed)
        #expect(try await withTimeout { try await readToEnd(connection) } == [])
        try await stopServing(serving)
    }

    @Test("the peer closing mid-stream finishes inbound after the bytes it sent")
    func peerClosesMidStream() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (server, client) = Self.pair(dir)
        // The handler sends half a "frame" and hangs up; returning closes the connection too.
        let serving = try await startServing(server) { connection in
            try? await connection.write([0, 0, 0, 10, 1, 2])
            await connection.close()
        }
        let connection = try await client.connect()
        #expect(try await withTimeout { try await readToEnd(connection) } == [0, 0, 0, 10, 1, 2])

        // By the time inbound has ended, the channel is closed: writing fails.
        let failure = await #expect(throws: TransportError.self) { try await connection.write([1]) }
        #expect(failure?.kind == .connectionClosed)
        await connection.close()
        try await stopServing(serving)
    }

    @Test("a connection dropped by the client reaches the handler as the end of inbound")
    func clientHangsUp() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (server, client) = Self.pair(dir)
        let (received, receivedContinuation) = AsyncStream.makeStream(of: [UInt8].self)
        let serving = try await startServing(server) { connection in
            receivedContinuation.yield((try? await readToEnd(connection)) ?? [99])
        }
        let connection = try await client.connect()
        try await connection.write([7, 8])
        await connection.close()
        #expect(try await withTimeout { await received.first { _ in true } } == [7, 8])
        try await stopServing(serving)
    }

    @Test("connections beyond maximumConnections are closed at once; the open one keeps working")
    func connectionLimit() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let logs = LogRecorder()
        let server = UnixSocketTransport(
            configuration: .init(
                listener: .bind(path: dir("a.sock")),
                peerLinkPath: dir("b.sock"),
                peerControlPath: dir("b.ctl"),
                maximumConnections: 1
            ),
            logger: logs.logger
        )
        let (_, client) = Self.pair(dir)
        let serving = try await startServing(server, echoHandler)

        let first = try await client.connect()
        try await first.write([1])
        #expect(try await withTimeout { try await readBytes(first, count: 1) } == [1])  // handler is running

        let second = try await client.connect()
        #expect(try await withTimeout { try await readToEnd(second) } == [])
        #expect(logs.all.contains { $0.level == .warning && $0.metadata["limit"] == "1" })

        try await first.write([2])
        #expect(try await withTimeout { try await readBytes(first, count: 1) } == [2])
        await first.close()
        await second.close()
        try await stopServing(serving)
    }
}
