import NIOCore
import NIOPosix

/// Where the process's Swift tasks run, for executables that choose NIO's threads.
public enum EventLoopExecutor {
    /// Makes NIO's event-loop threads the executor of every task, so the engine's tasks run on the threads
    /// that already do the socket I/O instead of handing each frame between two thread pools (the profile
    /// showed a message round trip dominated by those hand-offs). A trade-off: lone requests get faster,
    /// many in flight get slower (BENCHMARKS.md has both).
    ///
    /// Call it as the first statement of `main`, on the main thread, before any task is created; later
    /// it does nothing. Returns whether NIO installed itself.
    @discardableResult
    public static func installAsGlobalExecutor() -> Bool {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
