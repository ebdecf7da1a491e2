import Foundation
import Glibc
import WatchPairWire

/// A stand-in for a daemon's control socket, on a real Unix socket in a short temporary directory.
///
/// It accepts `connections` connections in turn, and runs the test's script for each on a thread of its
/// own (the accepted socket as a ``ServerSide``), so what the script waits for never holds up the client
/// under test. ``stop()`` waits for every script (bounded, as a safety net), then removes the socket.
final class ScriptedServer: Sendable {
    let path: String
    private let directory: String
    private let listener: Int32
    private let finished = DispatchSemaphore(value: 0)
    private let connections: Int

    init(connections: Int = 1, _ script: @escaping @Sendable (_ index: Int, _ side: ServerSide) -> Void) throws {
        var template = Array("/tmp/wpcc-test.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        directory = String(cString: made)
        path = directory + "/ctl"
        self.connections = connections
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        listener = fd
        guard UnixSocketAddress(path: path)?.withSockaddr({ bind(fd, $0, $1) }) == 0, listen(fd, 16) == 0 else {
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        let finished = self.finished
        Thread {
            for index in 0..<connections {
                let accepted = accept(fd, nil, nil)
                guard accepted >= 0 else {
                    finished.signal()
                    continue
                }
                Thread {
                    script(index, ServerSide(fd: accepted))
                    _ = close(accepted)
                    finished.signal()
                }.start()
            }
        }.start()
    }

    /// Waits for every script to end, then removes the socket and its directory.
    func stop() {
        _ = shutdown(listener, Int32(SHUT_RDWR))  // Wakes a pending accept (Linux).
        for _ in 0..<connections { _ = finished.wait(timeout: .now() + .seconds(20)) }
        _ = close(listener)
        _ = unlink(path)
        _ = rmdir(directory)
    }
}

/// The server's end of one connection: blocking line reads and whole writes.
final class ServerSide: @unchecked Sendable {
    let fd: Int32
    private var pending: [UInt8] = []

    init(fd: Int32) {
        self.fd = fd
    }

    /// The next line (without its newline), or nil at end of stream.
    func readLine() -> String? {
        var scanned = 0  // Only new bytes are searched: a test writes lines of megabytes.
        while true {
            if let newline = pending[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                defer { pending.removeFirst(newline + 1) }
                return String(decoding: pending[..<newline], as: UTF8.self)
            }
            scanned = pending.count
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            guard n > 0 else { return nil }
            pending += chunk[0..<n]
        }
    }

    /// Writes `text` as it is (add the newlines).
    func write(_ text: String) {
        var bytes = Array(text.utf8)
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return }
            bytes.removeFirst(n)
        }
    }
}

/// Runs `body` with a server running `script`, and stops the server after.
func withServer<Result>(
    connections: Int = 1, _ script: @escaping @Sendable (Int, ServerSide) -> Void,
    _ body: (ScriptedServer) async throws -> Result
) async throws -> Result {
    let server = try ScriptedServer(connections: connections, script)
    defer { server.stop() }
    return try await body(server)
}
