import Synchronization
import WatchPairCore
import WatchPairWire

/// The recent diagnostic events, for `wcctl events` and its `--follow` stream.
///
/// Bound: the newest ``capacity`` events (default 1000); appending beyond that overwrites the oldest.
/// Every event gets a position (0, 1, 2, …); readers keep a cursor and read what follows it, so any
/// number of followers share the one buffer, and a follower that falls more than ``capacity`` events
/// behind is told how many it lost instead of slowing anyone down. ``signal`` fires on every append.
///
/// Positions count this run's events only. Earlier runs' events (``EarlierEvents``) come before
/// position 0 and are read from disk when ``history()`` first needs them: the log shows the newest
/// ``capacity`` of both together, as if they had been appended at launch.
public final class EventLog: Sendable {
    /// How many events are kept.
    public let capacity: Int
    /// Fires after each append.
    public let signal = AsyncSignal()

    private struct State {
        /// The events held, a ring once `capacity` are held. It grows as events arrive, never past
        /// `capacity`: preallocated, the daemons' 10,000 slots were 2.5 MiB of an idle daemon's memory.
        var slots: [DiagnosticEvent] = []
        /// Position of the next event to append.
        var next: UInt64 = 0
    }

    private let state: Mutex<State>

    /// Earlier runs' events, before this run's.
    private let earlier: EarlierEvents

    /// An empty log keeping the newest `capacity` events (at least 1), after `earlier` ones.
    public init(capacity: Int = 1000, earlier: EarlierEvents = .none) {
        precondition(capacity > 0, "an event log holds at least one event")
        self.capacity = capacity
        self.earlier = earlier
        self.state = Mutex(State())
    }

    /// Every event held, earlier runs' first (the newest ``capacity`` of both), and the position after
    /// them (the cursor for what follows). The first call waits for the earlier events' read.
    public func history() async -> (events: [DiagnosticEvent], next: UInt64) {
        let (events, next, _) = read(from: 0)
        return (await withEarlier(events, next: next), next)
    }

    /// The events of ``history()`` after the newest one older than `since` (µs since 1970; events are
    /// kept in time order, so these are the ones from `since` on), and the position after them. Earlier
    /// runs' files are read only when one of their events may be among them.
    public func history(since: Int64) async -> (events: [DiagnosticEvent], next: UInt64) {
        let (events, next, _) = read(from: 0)
        let older: ([DiagnosticEvent]) -> Int? = { $0.lastIndex { EventTimestamp.microseconds($0.timestamp) < since } }
        if let index = older(events) { return (Array(events[(index + 1)...]), next) }
        if next >= UInt64(capacity) { return (events, next) }
        if let newest = await earlier.newestTimestamp(), newest < since { return (events, next) }
        let all = await withEarlier(events, next: next)
        return (Array(all[(older(all).map { $0 + 1 } ?? 0)...]), next)
    }

    /// `events` (this run's, read when `next` events had been appended) after the earlier ones that fit.
    private func withEarlier(_ events: [DiagnosticEvent], next: UInt64) async -> [DiagnosticEvent] {
        // This run's events overwrite earlier ones in the ring as they would have, had those been appended
        // at launch; once the ring is full of this run's, the files are never read.
        guard next < UInt64(capacity) else { return events }
        return await earlier.events().suffix(capacity - Int(next)) + events
    }

    /// Records `event`, overwriting the oldest when full, and wakes followers.
    public func append(_ event: DiagnosticEvent) {
        state.withLock { state in
            if state.slots.count < capacity {
                if state.slots.count == state.slots.capacity {
                    // Grow by doubling, but to `capacity` exactly at the end (an array left to itself
                    // would round the last step up to the next power of two).
                    state.slots.reserveCapacity(min(capacity, max(64, state.slots.count * 2)))
                }
                state.slots.append(event)
            } else {
                state.slots[Int(state.next % UInt64(capacity))] = event
            }
            state.next += 1
        }
        signal.fire()
    }

    /// The events from position `cursor` on, the cursor after them, and how many events between
    /// `cursor` and the oldest one held were overwritten before being read.
    public func read(from cursor: UInt64) -> (events: [DiagnosticEvent], next: UInt64, dropped: UInt64) {
        state.withLock { state in
            let oldest = state.next > UInt64(capacity) ? state.next - UInt64(capacity) : 0
            let start = max(cursor, oldest)
            guard start < state.next else { return ([], max(cursor, state.next), start - cursor) }
            let events = (start..<state.next).map { state.slots[Int($0 % UInt64(capacity))] }
            return (events, state.next, start - cursor)
        }
    }

    /// Slots allocated for events: grows with the events held, at most `capacity`.
    var allocatedSlots: Int { state.withLock { $0.slots.capacity } }

    /// This run's events held, oldest first.
    public var recent: [DiagnosticEvent] { read(from: 0).events }
}
