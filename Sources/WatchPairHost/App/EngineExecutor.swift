import Foundation
import Synchronization
import WatchPairTransport

/// One dedicated thread that runs every engine task of every `WCSession` in the process (the host's
/// `HostEnvironment/taskExecutor` for an app), and the same thread's event loop, which reads and writes
/// the session's sockets (`HostEnvironment/socketLoop`).
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
/// Why the socket loop's thread: a frame read from the link resumes the engine's task, and the engine's
/// write goes to the socket. On a thread of its own each of those was a wake-up of another thread, four
/// per message round trip (BENCHMARKS.md, "The WatchConnectivity module's round trip"); on the loop's
/// thread they are queued behind the read and run in the same loop tick.
///
/// Bound: jobs wait in the loop's unbounded FIFO, one entry per runnable task; the number of tasks is
/// bounded by the engine's own limits (links, incoming messages in flight, pending sends).
public final class EngineExecutor: Sendable {
    /// The executor every session uses.
    public static let shared = EngineExecutor()

    /// What the session's tasks prefer (the host's `HostEnvironment/taskExecutor`).
    public let executor: SocketLoopExecutor

    /// The loop whose thread runs the tasks; a session puts its sockets on it.
    public var socketLoop: SocketEventLoop { executor.loop }

    private init() {
        executor = SocketLoopExecutor(.dedicated(threadName: "wc-engine-"))
    }

    /// Whether the calling thread is the engine's.
    public var isCurrent: Bool { socketLoop.isCurrent }

    /// Starts `body` as a task on this executor.
    @discardableResult
    public func spawn<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> Task<T, Never> {
        Task(executorPreference: executor) { await body() }
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
