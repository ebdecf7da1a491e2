/// Where one store write transaction runs: on the calling thread, or on GRDB's writer queue.
///
/// A pure rule (table: `CommitPlacementTests`). A commit that makes no fsync takes microseconds, less than
/// the two thread hand-offs of the writer queue (the job there, the caller's continuation back), so it
/// runs where it is called. A commit that fsyncs stays on the writer queue: the caller's thread (in the
/// daemons, the event loop that serves the host's sockets) goes on reading requests during the fsync, and
/// they queue for the next group commit instead of waiting in the kernel.
enum CommitPlacement: Sendable, Equatable {
    /// On the calling thread (GRDB's synchronous write: `dispatch_sync` onto the idle writer runs the block
    /// on this thread; a busy writer is waited for).
    case caller
    /// On GRDB's writer queue; the caller suspends until the commit is done.
    case writerQueue

    /// Where a write with `sync` runs in a store of `durability`.
    static func of(_ sync: StoreDatabase.CommitSync, durability: Durability) -> CommitPlacement {
        switch (sync, durability) {
        case (.relaxed, _), (.durable, .process): .caller
        case (.durable, .power): .writerQueue
        }
    }
}
