import Foundation

extension WatchConnection {
    /// Makes `body` what happens to request `id` `delay` from now (replacing its earlier deadline): an
    /// entry of the connection's ``DeadlineSchedule``, which one sleeper serves for every request.
    func armTimer(_ id: UUID, after delay: Duration, _ body: @escaping @MainActor (WatchConnection) -> Void) {
        guard pending[id] != nil else { return }
        pending[id]?.onDeadline = body
        if case .sleep(let until) = deadlines.arm(id, at: time.elapsed() + delay) { sleepUntil(until) }
    }

    /// (Re)starts the one deadline sleeper: it wakes at `until` (elapsed time) and runs what is due.
    private func sleepUntil(_ until: Duration) {
        deadlineSleeper?.cancel()
        let (sleep, delay) = (time.sleep, until - time.elapsed())
        deadlineSleeper = tasks.start { [weak self] in
            do { try await sleep(delay) } catch { return }
            self?.deadlinesDue()
        }
    }

    /// Runs the deadlines due now, oldest first; sleeps again until the next one, if any.
    private func deadlinesDue() {
        let (due, next) = deadlines.woke(at: time.elapsed())
        if case .sleep(let until) = next { sleepUntil(until) } else { deadlineSleeper = nil }
        for id in due {
            guard let body = pending[id]?.onDeadline else { continue }
            body(self)
        }
    }
}
