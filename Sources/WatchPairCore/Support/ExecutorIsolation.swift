/// An actor on a given serial executor: code isolated to it runs where that executor runs (a socket's
/// event loop), so it may enter another actor on the same executor synchronously (`assumeIsolated`),
/// as a control connection's reader enters the engine on the host's loop.
public actor ExecutorIsolation {
    /// Where the actor runs.
    public nonisolated let executor: any SerialExecutor

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// An actor on `executor`.
    public init(_ executor: any SerialExecutor) {
        self.executor = executor
    }
}
