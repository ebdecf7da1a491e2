import Foundation
import Synchronization

/// One dedicated thread that runs every engine task of every `WCSession` in the process (the host's
/// `HostEnvironment/taskExecutor` for an app).
///
/// Apple's API is synchronous in places (`transferUserInfo` returns a durable transfer,
/// `updateApplicationContext` throws), while the engine is async. Those calls block their caller until
/// the engine answers. If the engine ran on Swift's cooperative pool, a few callers blocking
/// cooperative threads (an app calling `transferUserInfo` from inside `Task {}`) could starve it and
/// deadlock. So the session runs all its tasks with this executor as their task-executor preference
/// (SE-0417): the engine actor, its child tasks and its timers run here, and the engine never needs a
/// thread a blocked caller holds. The rule for callers is then simply: never block this thread, which
/// only the session's own code runs on (`blockingCall` refuses to).
///
/// Bound: jobs wait in an unbounded FIFO, one entry per runnable task; the number of tasks is bounded by
/// the engine's own limits (links, incoming messages in flight, pending sends).
public final class EngineExecutor: TaskExecutor, @unchecked Sendable {
    /// The executor every session uses.
    public static let shared = EngineExecutor(name: "WatchConnectivity.engine")

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private let threadId = Mutex<pthread_t?>(nil)

    private init(name: String) {
        let thread = Thread { [unowned self] in
            self.threadId.withLock { $0 = pthread_self() }
            self.runLoop()
        }
        thread.name = name
        thread.start()
    }

    /// Queues `job` to run on the engine thread, after the jobs queued before it.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Whether the calling thread is the engine's.
    public var isCurrent: Bool {
        threadId.withLock { id in id.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    private func runLoop() {
        var batch: [UnownedJob] = []
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            swap(&batch, &jobs)
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// Starts `body` as a task on this executor.
    @discardableResult
    public func spawn<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> Task<T, Never> {
        Task(executorPreference: self) { await body() }
    }

    /// Runs `body` on this executor and blocks the calling thread until it returns.
    ///
    /// Safe from any thread except this executor's own (the main thread, a `DispatchQueue`, a cooperative
    /// thread, the delegate queue): the work never needs the blocked thread.
    public func blockingCall<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        precondition(!isCurrent, "WatchConnectivity: a synchronous WCSession call was made on the engine's own thread")
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<T?>(nil)
        spawn {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }
}
