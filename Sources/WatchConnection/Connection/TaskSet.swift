/// The tasks a ``WatchConnection`` starts (deliveries, timers, flushes, handler runs, its session
/// event loop), kept so that `close()` can cancel them and wait until every one has ended.
///
/// WatchConnectivitySwift's API has no `run()` to hang them from, so they cannot be child tasks; this
/// is the next best thing: no task of the connection outlives `close()`. A task removes itself when it
/// ends. Bound: one entry per running task; after ``cancelAll()`` nothing new starts (``start(_:)``
/// returns nil).
@MainActor
final class TaskSet {
    private var tasks: [UInt64: Task<Void, Never>] = [:]
    private var nextId: UInt64 = 0
    private(set) var isClosed = false

    /// How many tasks are running.
    var count: Int { tasks.count }

    /// Starts `operation` in a task on the main actor; nil (and nothing runs) once closed.
    @discardableResult
    func start(_ operation: @escaping @MainActor () async -> Void) -> Task<Void, Never>? {
        guard !isClosed else { return nil }
        nextId += 1
        let id = nextId
        let task = Task { @MainActor [weak self] in
            await operation()
            self?.tasks[id] = nil
        }
        // A task that already ended removed nothing: it could not have run before this line (main actor).
        tasks[id] = task
        return task
    }

    /// Cancels every task and refuses new ones.
    func cancelAll() {
        isClosed = true
        for task in tasks.values { task.cancel() }
    }

    /// Waits until every task has ended (tasks they start meanwhile included).
    func waitForAll() async {
        while let (id, task) = tasks.first {
            await task.value
            tasks[id] = nil
        }
    }
}
