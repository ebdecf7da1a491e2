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
/// The trade-off: the host's socket I/O no longer spreads over the group's threads, and since tasks stay
/// on the loop that resumed them, neither does the work those sockets start. Work that writes to none of
/// the host's sockets (the event sink: history file, journald or stderr) can run on ``spareExecutor``
/// instead, off the sockets' thread. BENCHMARKS.md ("Issue 10, fourth round" and "fifth round") has the
/// measurements.
public struct SocketEventLoop: Sendable {
    /// The loop every socket of the transports made with this value runs on.
    let eventLoop: any EventLoop
    private let spare: EventLoopTaskExecutor

    init(eventLoop: any EventLoop, group: any EventLoopGroup) {
        self.eventLoop = eventLoop
        // Another loop of the group; this one when the group has only one.
        self.spare = EventLoopTaskExecutor(group.makeIterator().first { $0 !== eventLoop } ?? eventLoop)
    }

    /// The next loop of NIO's shared group (round robin), for one host's sockets.
    public static func next() -> SocketEventLoop {
        let group = MultiThreadedEventLoopGroup.singleton
        return SocketEventLoop(eventLoop: group.next(), group: group)
    }

    /// Runs the tasks that prefer it (SE-0417) on a loop of NIO's group other than the sockets' loop
    /// (the same loop on a one-thread group), so work that writes to no socket of the host does not take
    /// the thread that reads, decides and writes for all of them.
    public var spareExecutor: any TaskExecutor { spare }

    /// Whether the calling thread is the spare executor's loop (tests check where work ran).
    var spareIsCurrent: Bool { spare.isCurrent }

    /// Whether the spare executor has a loop of its own (the group has more than one loop).
    var hasSpareLoop: Bool { !spare.runs(on: eventLoop) }
}
