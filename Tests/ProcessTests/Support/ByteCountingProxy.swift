import Foundation
import Synchronization
import WatchPairWire

/// Counts the bytes one side sends the other through ``ByteCountingProxy``s, and can hold them at a
/// limit: a test stops a transfer at an exact byte count (no timing), kills a daemon, then lets it go on.
///
/// Shared by the two proxies of a pair, so the count covers every link whichever side opened it.
final class ByteGate: Sendable {
    private struct State {
        var passed = 0
        var limit = Int.max
        var holding = false
    }

    private let state = Mutex(State())
    private let condition = NSCondition()

    /// Bytes let through so far.
    var passed: Int { state.withLock { $0.passed } }
    /// Whether a copy waits at the limit.
    var isHolding: Bool { state.withLock { $0.holding } }

    /// From now on, let at most `limit` bytes through in all (`Int.max`: no limit).
    func hold(at limit: Int) {
        condition.lock()
        state.withLock { $0.limit = limit }
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until `count` more bytes fit under the limit (a copy is never split: the last one may
    /// end past it), then counts them.
    fileprivate func pass(_ count: Int) {
        condition.lock()
        defer { condition.unlock() }
        while state.withLock({ state in
            let blocked = state.passed >= state.limit
            state.holding = blocked
            if !blocked { state.passed += count }
            return blocked
        }) {
            condition.wait()
        }
    }
}

/// A pass-through Unix socket in front of a daemon's link socket: set it as the other daemon's
/// `paths.peerLink`. The bytes of one direction go through a ``ByteGate``.
///
/// An accept thread serves any number of connections; each has two copying threads. A connection whose
/// upstream is not there (the daemon is down) is closed at once, as a refused connect would be.
final class ByteCountingProxy: Sendable {
    /// Which direction's bytes the gate counts.
    enum Direction: Sendable {
        /// From whoever connected to the daemon.
        case toUpstream
        /// From the daemon back to whoever connected.
        case fromUpstream
    }

    /// Where clients connect.
    let path: String
    private let listening: Int32

    /// Listens at `path`, forwarding each connection to the socket at `upstream`.
    init(path: String, upstream: String, gate: ByteGate, counting direction: Direction) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SandboxError("socket() for the proxy: errno \(errno)") }
        unlink(path)
        guard UnixSocketAddress(path: path)?.withSockaddr({ bind(fd, $0, $1) }) == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw SandboxError("cannot listen at \(path): errno \(errno)")
        }
        self.path = path
        self.listening = fd
        let thread = Thread { [self] in self.acceptLoop(upstream: upstream, gate: gate, direction: direction) }
        thread.name = "proxy \(path)"
        thread.start()
    }

    /// Stops accepting; connections already open continue.
    func stop() {
        shutdown(listening, Int32(SHUT_RDWR))
    }

    private func acceptLoop(upstream: String, gate: ByteGate, direction: Direction) {
        while true {
            let client = accept(listening, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                close(listening)
                return
            }
            let daemon = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard daemon >= 0, UnixSocketAddress(path: upstream)?.withSockaddr({ connect(daemon, $0, $1) }) == 0 else {
                close(client)
                if daemon >= 0 { close(daemon) }
                continue
            }
            let upEnded = DispatchSemaphore(value: 0)
            Thread {
                Self.pump(from: client, to: daemon, gate: direction == .toUpstream ? gate : nil)
                upEnded.signal()
            }.start()
            Thread {
                Self.pump(from: daemon, to: client, gate: direction == .fromUpstream ? gate : nil)
                upEnded.wait()
                close(client)
                close(daemon)
            }.start()
        }
    }

    /// Copies bytes (through `gate`, when given) until end of file or an error; then ends both directions,
    /// as the real link would for a killed daemon.
    private static func pump(from: Int32, to: Int32, gate: ByteGate?) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(from, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            gate?.pass(n)
            var offset = 0
            while offset < n {
                let w = buffer.withUnsafeBytes { send(to, $0.baseAddress! + offset, n - offset, Int32(MSG_NOSIGNAL)) }
                if w < 0 && errno == EINTR { continue }
                guard w > 0 else { break }
                offset += w
            }
            if offset < n { break }
        }
        shutdown(to, Int32(SHUT_RDWR))
        shutdown(from, Int32(SHUT_RDWR))
    }
}
