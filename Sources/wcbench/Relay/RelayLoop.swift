import Glibc

/// How a relay process of the relay floor waits for its sockets (`wcbench _relay --loop …`).
///
/// All move bytes without looking at them: no framing, no parsing. `blocking` and `epoll` differ only in
/// how the process learns that bytes have arrived, so their rows bracket what four socket crossings
/// through two relaying processes cost on this machine; `nio` adds what NIO itself costs (a pipeline, a
/// buffer per read), and `nioEvents` the system calls of the daemons' event lines.
enum RelayLoop: String, CaseIterable, Sendable {
    /// One thread blocked in `read`: relay A does `read(client) → write(B) → read(B) → write(client)`.
    /// The absolute floor of four crossings: no readiness call at all.
    case blocking
    /// One thread in `epoll_wait` (level-triggered) on its sockets, then `read` and `write` per ready
    /// socket: the shape of every event-loop server, NIO's included.
    case epoll
    /// NIO's event loop and channel pipeline, what the daemons are built on (``NIORelay``).
    case nio
    /// `nio`, and per round trip each relay writes an event line to a history file and to stderr, as
    /// each daemon writes its message event (``NIORelay``): the floor of the daemons' system calls.
    case nioEvents

    /// The size of the one buffer each relay reads into (far above the 1 KiB payloads measured).
    static let bufferSize = 64 * 1024

    /// Relays between `up` (toward the client) and `down` (toward the far end) until either closes;
    /// `history` is the open file `nioEvents` writes its event lines to.
    ///
    /// Each read is written on in full before the next read, so what the client sends comes back to it
    /// byte for byte; the round trip is the client's business (it sends again only after the reply).
    func relay(up: Int32, down: Int32, history: Int32? = nil) throws(BenchError) {
        switch self {
        case .blocking: Self.blockingRelay(up: up, down: down)
        case .epoll: try Self.epollLoop(sources: [up, down]) { $0 == up ? down : up }
        case .nio, .nioEvents: try NIORelay.run(up: up, down: down, history: eventHistory(history))
        }
    }

    /// Echoes everything read on `fd` back to it until end of stream: the far end (B) of the relay
    /// floor, and with `.blocking` the raw ping-pong's `_echo` process.
    func echo(_ fd: Int32, history: Int32? = nil) throws(BenchError) {
        switch self {
        case .blocking: Self.blockingEcho(fd)
        case .epoll: try Self.epollLoop(sources: [fd]) { $0 }
        case .nio, .nioEvents: try NIORelay.run(up: fd, down: nil, history: eventHistory(history))
        }
    }

    /// Whether the relays write event lines, and so need a history file.
    var writesEvents: Bool { self == .nioEvents }

    /// The history file the relay writes its event lines to: `history` when this loop writes them, else nil.
    private func eventHistory(_ history: Int32?) throws(BenchError) -> Int32? {
        guard writesEvents else { return nil }
        guard let history else { throw BenchError("--loop \(rawValue) needs --history") }
        return history
    }

    private static func blockingEcho(_ fd: Int32) {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = read(fd, buffer, bufferSize)
            if n < 0 && errno == EINTR { continue }
            guard n > 0, UnixSockets.writeExactly(fd, buffer, n) else { return }
        }
    }

    private static func blockingRelay(up: Int32, down: Int32) {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = read(up, buffer, bufferSize)
            if n < 0 && errno == EINTR { continue }
            // The far end echoes, so exactly `n` bytes come back (possibly in several reads).
            guard n > 0,
                UnixSockets.writeExactly(down, buffer, n),
                UnixSockets.readExactly(down, buffer, n),
                UnixSockets.writeExactly(up, buffer, n)
            else { return }
        }
    }

    /// Wait, then per ready socket one `read` and a `write` of what was read to `destination(socket)`.
    ///
    /// The descriptors stay blocking: after `epoll_wait` reports a socket readable its only reader never
    /// blocks in `read`, and one payload of at most 1 KiB in flight never fills a socket buffer, so the
    /// system calls per message are exactly an event loop's (`epoll_wait`, `read`, `write`) without the
    /// `EAGAIN` paths.
    private static func epollLoop(sources: [Int32], destination: (Int32) -> Int32) throws(BenchError) {
        let epoll = try Epoll()
        for fd in sources { try epoll.addInput(fd) }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let ready = try epoll.wait()
            for index in 0..<ready {
                let from = epoll.ready(index)
                let n = read(from, buffer, bufferSize)
                if n < 0 && errno == EINTR { continue }
                // End of stream or an error on either socket: the chain is being taken down.
                guard n > 0, UnixSockets.writeExactly(destination(from), buffer, n) else { return }
            }
        }
    }
}
