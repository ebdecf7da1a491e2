import Foundation
import Synchronization
import WatchPairWire

/// A pass-through control socket between one `wcctl` and a daemon, which tells when the daemon has
/// answered that client's first request.
///
/// `wcctl receive --follow` prints nothing when its stream starts, and the daemon attaches the message
/// handler before it answers the `receive`; so the first line the daemon sends back through the tap
/// means the handler is attached, and a message sent after it is handled (no retrying on 7014).
/// Bytes are copied unchanged both ways by two threads; when either side closes its sending side, the
/// tap closes the other's, and it closes both sockets when both directions have ended. It serves one
/// connection.
final class ControlTap: Sendable {
    /// Where the client connects (pass it with `--control`).
    let path: String
    /// The daemon's first line to the client, once it has arrived (finished when the connection ends).
    let answered = LineLog()
    private let listening: Int32

    /// Listens at `path`, forwarding to the control socket at `upstream`.
    init(path: String, upstream: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SandboxError("socket() for the tap: errno \(errno)") }
        guard UnixSocketAddress(path: path)?.withSockaddr({ bind(fd, $0, $1) }) == 0, listen(fd, 1) == 0 else {
            close(fd)
            throw SandboxError("cannot listen at \(path): errno \(errno)")
        }
        self.path = path
        self.listening = fd
        let thread = Thread { [self] in self.serve(upstream: upstream) }
        thread.name = "tap \(path)"
        thread.start()
    }

    /// Waits until the daemon has answered the client's first request; false at the timeout or when
    /// the connection ended first.
    func waitAnswered(timeout: Duration = .seconds(20)) async -> Bool {
        return await answered.wait(timeout: timeout) { !$0.isEmpty }
    }

    private func serve(upstream: String) {
        let client = accept(listening, nil, nil)
        close(listening)
        guard client >= 0 else {
            answered.finish()
            return
        }
        let daemon = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard daemon >= 0, UnixSocketAddress(path: upstream)?.withSockaddr({ connect(daemon, $0, $1) }) == 0 else {
            close(client)
            if daemon >= 0 { close(daemon) }
            answered.finish()
            return
        }
        let toDaemonEnded = DispatchSemaphore(value: 0)
        let toDaemon = Thread {
            Self.pump(from: client, to: daemon, firstLine: nil)
            toDaemonEnded.signal()
        }
        toDaemon.start()
        Self.pump(from: daemon, to: client, firstLine: answered)
        answered.finish()
        // The other direction ends when the client closes; both sockets close with the last pump.
        toDaemonEnded.wait()
        close(client)
        close(daemon)
    }

    /// Copies bytes until end of file, then closes `to`'s sending side. Records the first line in `firstLine`.
    private static func pump(from: Int32, to: Int32, firstLine: LineLog?) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var seenNewline = false
        while true {
            let n = buffer.withUnsafeMutableBytes { read(from, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            var offset = 0
            while offset < n {
                let w = buffer.withUnsafeBytes { send(to, $0.baseAddress! + offset, n - offset, Int32(MSG_NOSIGNAL)) }
                if w < 0 && errno == EINTR { continue }
                guard w > 0 else { return shutdownBoth(from, to) }
                offset += w
            }
            if let firstLine, !seenNewline, let newline = buffer[0..<n].firstIndex(of: UInt8(ascii: "\n")) {
                seenNewline = true
                firstLine.append(buffer[0...newline])
            }
        }
        shutdown(to, Int32(SHUT_WR))
    }

    private static func shutdownBoth(_ a: Int32, _ b: Int32) {
        shutdown(a, Int32(SHUT_RDWR))
        shutdown(b, Int32(SHUT_RDWR))
    }
}
