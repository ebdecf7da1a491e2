import NIOCore
import NIOPosix

/// One NIO event loop that several ``UnixSocketTransport``s put all their sockets on.
///
/// Why: a daemon answers a control request by writing to its peer link and then back to the control
/// client. NIO's event-loop group hands each new socket the next loop in turn, so the control client and
/// the peer link usually sat on different threads, and every line or frame crossed threads through
/// `EventLoop.execute`, waking the other loop (20% of watchd's message-path samples). With the daemons'
/// tasks running on NIO's loops (``EventLoopExecutor``), which stay on the loop that resumed them, a
/// host whose sockets share one loop reads, decides and writes on that one thread: no wake-up per line.
///
/// The trade-off: the host's socket I/O no longer spreads over the group's threads (the other threads
/// still run tasks). BENCHMARKS.md ("Issue 10, fourth round") has the measurements.
public struct SocketEventLoop: Sendable {
    /// The loop every socket of the transports made with this value runs on.
    let eventLoop: any EventLoop

    /// The next loop of NIO's shared group (round robin), for one host's sockets.
    public static func next() -> SocketEventLoop {
        SocketEventLoop(eventLoop: MultiThreadedEventLoopGroup.singleton.next())
    }
}
