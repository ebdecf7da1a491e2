/// Which events `wcctl events` and `wcctl timeline` show, and the merge of both apps' events.
///
/// Pure: the daemons hand out their whole history; selecting happens here, so the same rules apply to
/// a live query and to files.
public struct EventSelection: Sendable, Hashable {
    /// Only events at or after this time (microseconds since 1970).
    public var since: Int64?
    /// Only these event names (empty: all).
    public var kinds: Set<String>
    /// Only events of these channels (empty: all).
    public var channels: Set<String>
    /// Only the newest this many, after the other filters.
    public var last: Int?

    /// A selection; the defaults select everything.
    public init(since: Int64? = nil, kinds: Set<String> = [], channels: Set<String> = [], last: Int? = nil) {
        self.since = since
        self.kinds = kinds
        self.channels = channels
        self.last = last
    }

    /// Whether `event` passes the filters (not `last`, which depends on the others).
    public func matches(_ event: SessionEvent) -> Bool {
        if let since, event.time < since { return false }
        if !kinds.isEmpty, !kinds.contains(event.kind) { return false }
        if !channels.isEmpty, !channels.contains(event.channel ?? "") { return false }
        return true
    }

    /// The events of `merged` (in time order) that pass, keeping the newest `last`.
    public func apply(_ merged: [SessionEvent]) -> [SessionEvent] {
        let selected = merged.filter(matches)
        guard let last else { return selected }
        return Array(selected.suffix(max(0, last)))
    }

    /// Both apps' events in one list ordered by time (numerically, never by text). Each app's own order
    /// is kept for equal times, and at equal times the phone's event comes first, so the result is the
    /// same however the lists were fetched.
    public static func merge(_ lists: [[SessionEvent]]) -> [SessionEvent] {
        var keyed: [(event: SessionEvent, index: Int)] = []
        for list in lists {
            for (index, event) in list.enumerated() { keyed.append((event, index)) }
        }
        keyed.sort { a, b in
            if a.event.time != b.event.time { return a.event.time < b.event.time }
            if a.event.role != b.event.role { return a.event.role == .phone }
            return a.index < b.index
        }
        return keyed.map(\.event)
    }
}
