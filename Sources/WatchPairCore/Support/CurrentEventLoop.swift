/// The event loop the calling thread runs, as somewhere to queue work behind the jobs already queued
/// there: how the store's writer resumes callers on their loop (``StoreWriter``). The transport supplies
/// it (this module knows no event loop); without one, callers are resumed from the writer's thread.
public struct CurrentEventLoop: Sendable {
    /// Queues a job on one event loop, behind what is queued there; from the loop's own thread it wakes nothing.
    public typealias Enqueue = @Sendable (@escaping @Sendable () -> Void) -> Void

    private let find: @Sendable () -> Enqueue?

    /// `find` returns the calling thread's loop's `execute`, or nil when the thread runs no event loop.
    public init(_ find: @escaping @Sendable () -> Enqueue?) {
        self.find = find
    }

    /// The calling thread's loop's `execute`; nil off any loop.
    func current() -> Enqueue? { find() }
}
