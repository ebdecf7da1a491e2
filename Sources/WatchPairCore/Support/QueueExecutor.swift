import Dispatch

/// A serial executor on a dispatch queue of its own: where an engine runs when its host gives it no
/// event loop (the engine tests' in-memory transports). A daemon's engine runs on its sockets' loop
/// instead, so the loop's channel handlers can drive it without a task (``PairEngine/executor``).
final class QueueExecutor: SerialExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}
