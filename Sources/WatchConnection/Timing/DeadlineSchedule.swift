import Foundation

/// The deadlines of a connection's requests (timeouts, queue expiry), pure: one sleeper serves them all,
/// instead of a task and a timer per request.
///
/// - ``arm(_:at:)`` sets (or moves) a request's deadline. Only a deadline earlier than the one the sleeper
///   waits for needs a new sleeper (`.sleep`); a later one waits in the table, so a run of requests with
///   the same timeout starts one sleeper, not one each.
/// - ``disarm(_:)`` forgets a deadline and leaves the sleeper alone: it wakes once at its instant, finds
///   nothing due and goes back to sleep (or ends). That costs one wake-up per deadline interval instead
///   of a task started and cancelled per request.
/// - ``woke(at:)`` returns the deadlines that are due, oldest first (ties by arming order), and where the
///   sleeper sleeps next, if anywhere.
///
/// Bound: one entry per armed request (a request's deadline is disarmed when it ends).
public struct DeadlineSchedule: Sendable, Hashable {
    /// What the owner does with its sleeper.
    public enum Action: Sendable, Hashable {
        /// Nothing: the sleeper already wakes in time (or nothing is armed).
        case none
        /// (Re)start the sleeper: it wakes at this instant of the connection's elapsed time.
        case sleep(until: Duration)
    }

    private struct Entry: Sendable, Hashable {
        var due: Duration
        var order: UInt64
    }

    private var entries: [UUID: Entry] = [:]
    private var nextOrder: UInt64 = 0
    /// The instant the sleeper wakes at; nil when none sleeps.
    public private(set) var sleepingUntil: Duration?

    /// An empty schedule.
    public init() {}

    /// How many deadlines are armed.
    public var count: Int { entries.count }

    /// Arms (or moves) the deadline of `id` to `due`.
    public mutating func arm(_ id: UUID, at due: Duration) -> Action {
        nextOrder += 1
        entries[id] = Entry(due: due, order: nextOrder)
        if let sleepingUntil, sleepingUntil <= due { return .none }
        sleepingUntil = due
        return .sleep(until: due)
    }

    /// Forgets the deadline of `id` (its request ended); the sleeper stays as it is.
    public mutating func disarm(_ id: UUID) {
        entries[id] = nil
    }

    /// The sleeper woke at `now`: the ids whose deadline is due, removed, in order; and its next sleep.
    public mutating func woke(at now: Duration) -> (due: [UUID], next: Action) {
        let due = entries.filter { $0.value.due <= now }.sorted { ($0.value.due, $0.value.order) < ($1.value.due, $1.value.order) }
        for (id, _) in due { entries[id] = nil }
        sleepingUntil = entries.values.map(\.due).min()
        return (due.map(\.key), sleepingUntil.map { .sleep(until: $0) } ?? .none)
    }
}
