import NIOCore

/// A task executor (SE-0417) that runs its jobs on one NIO event loop.
///
/// Why: with NIO's loops as the global executor (``EventLoopExecutor``), a task stays on the loop that
/// resumed it, so work a socket read starts stays on that socket's loop. A task that prefers this
/// executor runs on the loop named here instead, whatever resumed it.
final class EventLoopTaskExecutor: TaskExecutor {
    private let loop: any EventLoop

    init(_ loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        loop.execute { job.runSynchronously(on: executor) }
    }

    /// Whether the calling thread is this executor's loop.
    var isCurrent: Bool { loop.inEventLoop }

    /// Whether this executor's loop is `other`.
    func runs(on other: any EventLoop) -> Bool { loop === other }
}
