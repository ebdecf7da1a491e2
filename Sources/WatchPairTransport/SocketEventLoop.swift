import NIOCore
import NIOPosix
import WatchPairCore

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
/// still run tasks). BENCHMARKS.md ("Changes that mattered", issue 10's fourth round, `f297077`) has the
/// measurements.
public struct SocketEventLoop: Sendable {
    /// The loop every socket of the transports made with this value runs on.
    let eventLoop: any EventLoop
    /// The group of a ``dedicated(threadName:)`` loop, held so it lives as long as any value that uses its loop.
    private let group: MultiThreadedEventLoopGroup?

    private init(eventLoop: any EventLoop, group: MultiThreadedEventLoopGroup? = nil) {
        self.eventLoop = eventLoop
        self.group = group
    }

    /// The next loop of NIO's shared group (round robin), for one host's sockets.
    public static func next() -> SocketEventLoop {
        SocketEventLoop(eventLoop: MultiThreadedEventLoopGroup.singleton.next())
    }

    /// A loop on a thread of its own, named `threadName` (and NIO's numbers; Linux keeps 15 characters),
    /// for a process that runs its tasks where its sockets are read (an app's `EngineExecutor`). Never
    /// shut down: it lives as long as the process (NIO's `_makePerpetualGroup` is for exactly such
    /// process-wide loops, and unlike the public initialiser it names the thread, which profiles show).
    public static func dedicated(threadName: String) -> SocketEventLoop {
        let group = MultiThreadedEventLoopGroup._makePerpetualGroup(threadNamePrefix: threadName, numberOfThreads: 1)
        return SocketEventLoop(eventLoop: group.next(), group: group)
    }

    /// The loop as an actor's executor: an actor on it runs its jobs on the loop's thread, and code the loop
    /// runs (a channel handler) may enter it synchronously (`assumeIsolated`).
    public var serialExecutor: any SerialExecutor { eventLoop.executor }

    /// Whether the calling thread is this loop's.
    public var isCurrent: Bool { eventLoop.inEventLoop }

    /// Runs `body` on the loop's thread after what is queued there. From the loop's own thread this only
    /// queues (no wake-up); from another thread it wakes the loop.
    public func execute(_ body: @escaping @Sendable () -> Void) {
        eventLoop.execute(body)
    }
}

/// Runs the tasks that prefer it (SE-0417) on a ``SocketEventLoop``'s thread, in the order they were
/// queued, so a task resumed by a socket read, and the writes it makes, stay on the loop's thread.
public final class SocketLoopExecutor: TaskExecutor, Sendable {
    /// The loop whose thread runs the jobs.
    public let loop: SocketEventLoop

    /// An executor for `loop`'s thread.
    public init(_ loop: SocketEventLoop) {
        self.loop = loop
    }

    /// Queues `job` on the loop's thread.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        loop.execute { job.runSynchronously(on: executor) }
    }
}

extension CurrentEventLoop {
    /// NIO's: the calling thread's loop when it is one of NIO's event-loop threads (the daemons' tasks
    /// and sockets, an app's engine executor), nil on any other thread.
    public static let nio = CurrentEventLoop {
        guard let loop = MultiThreadedEventLoopGroup.currentEventLoop else { return nil }
        return { job in loop.execute(job) }
    }
}
