import Synchronization

/// The tasks a ``WatchConnection`` starts (deliveries, timers, flushes, handler runs, its session
/// event loop), kept so that `close()` can cancel them and wait until every one has ended.
///
/// WatchConnectivitySwift's API has no `run()` to hang them from, so they cannot be child tasks; this
/// is the next best thing: no task of the connection outlives `close()`. A task removes itself when it
/// ends. Bound: one entry per running task; after ``cancelAll()`` nothing new starts (``start(_:)``
/// returns nil).
///
/// Safe from any thread: the receiver starts handler runs on the session's delegate queue, with no hop
/// to the main actor (``startHere(immediately:_:)``).
final class TaskSet: Sendable {
    private struct State {
        var tasks: [UInt64: Task<Void, Never>] = [:]
        /// Tasks that ended before their entry was stored (a task started immediately can end inside
        /// `Task.immediate`, before it returns).
        var endedEarly: Set<UInt64> = []
        var nextId: UInt64 = 0
        var isClosed = false
    }

    private let state = Mutex(State())

    /// Whether `cancelAll()` was called.
    var isClosed: Bool { state.withLock { $0.isClosed } }

    /// How many tasks are running.
    var count: Int { state.withLock { $0.tasks.count } }

    /// Starts `operation` in a task on the main actor; nil (and nothing runs) once closed.
    @discardableResult
    func start(_ operation: @escaping @MainActor () async -> Void) -> Task<Void, Never>? {
        guard let id = reserve() else { return nil }
        let task = Task { @MainActor [weak self] in
            await operation()
            self?.ended(id)
        }
        return store(task, id)
    }

    /// Starts `operation` off the main actor; false (and nothing runs) once closed. `immediately`: it
    /// runs on the calling thread until its first suspension (`Task.immediate`), so a handler that
    /// answers at once costs no hand-over to another thread; otherwise on the global executor.
    @discardableResult
    func startHere(immediately: Bool, _ operation: @escaping @Sendable () async -> Void) -> Bool {
        guard let id = reserve() else { return false }
        let body: @Sendable () async -> Void = { [weak self] in
            await operation()
            self?.ended(id)
        }
        let task = immediately ? Task.immediate(operation: body) : Task(operation: body)
        return store(task, id) != nil
    }

    /// Cancels every task and refuses new ones.
    func cancelAll() {
        let tasks = state.withLock { state in
            state.isClosed = true
            return Array(state.tasks.values)
        }
        for task in tasks { task.cancel() }
    }

    /// Waits until every task has ended (tasks they start meanwhile included).
    func waitForAll() async {
        while let (id, task) = state.withLock({ $0.tasks.first }) {
            await task.value
            state.withLock { _ = $0.tasks.removeValue(forKey: id) }
        }
    }

    /// A new task's id; nil once closed.
    private func reserve() -> UInt64? {
        state.withLock { state in
            guard !state.isClosed else { return nil }
            state.nextId += 1
            return state.nextId
        }
    }

    /// Keeps `task` unless it ended already. Closed meanwhile: it is cancelled (and kept, so
    /// `waitForAll()` waits for it).
    private func store(_ task: Task<Void, Never>, _ id: UInt64) -> Task<Void, Never>? {
        let cancel = state.withLock { state -> Bool in
            if state.endedEarly.remove(id) != nil { return false }
            state.tasks[id] = task
            return state.isClosed
        }
        if cancel { task.cancel() }
        return task
    }

    private func ended(_ id: UInt64) {
        state.withLock { state in
            if state.tasks.removeValue(forKey: id) == nil { state.endedEarly.insert(id) }
        }
    }
}
