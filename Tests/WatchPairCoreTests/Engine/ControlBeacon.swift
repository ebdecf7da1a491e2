import Foundation
import WatchPairTransport

#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for a running app's control socket: bound as the daemons bind theirs (so it never appears
/// before it listens), it answers each connection's first line with `{}` on a thread of its own, as a
/// live app answers the peer's ``Transport/peerAnswers()``. ``close()`` stops it as a crash would: the
/// file stays unless the caller removes it.
final class ControlBeacon: @unchecked Sendable {
    private let descriptor: Int32
    private let thread: Thread
    private let stopped = DispatchSemaphore(value: 0)

    init(path: String) throws {
        let descriptor = try ListeningSocket.bind(path: path, mode: 0o600, logger: quietLogger).descriptor
        self.descriptor = descriptor
        let stopped = stopped
        // The listener is non-blocking (as NIO wants it); this thread waits in poll instead.
        thread = Thread {
            defer { stopped.signal() }
            var pending = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while poll(&pending, 1, -1) >= 0 || errno == EINTR {
                guard pending.revents & Int16(POLLIN) != 0 else { return }
                let client = accept(descriptor, nil, nil)
                guard client >= 0 else {
                    if errno == EAGAIN || errno == EINTR { continue }
                    return
                }
                Self.answer(client)
            }
        }
        thread.start()
    }

    /// Reads up to the first newline (blocking: the client writes its line at once), answers, closes.
    private static func answer(_ client: Int32) {
        defer { Glibc.close(client) }
        var byte: UInt8 = 0
        while recv(client, &byte, 1, 0) == 1, byte != UInt8(ascii: "\n") {}
        let line = Array("{}\n".utf8)
        _ = line.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Stops answering and closes the listener: shutdown wakes the thread's poll, and the descriptor is
    /// closed only once the thread is done with it (its number could be reused at once).
    func close() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        stopped.wait()
        Glibc.close(descriptor)
    }
}
