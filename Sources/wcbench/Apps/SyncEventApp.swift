import WatchPairWire

/// The watch's keyed-sync events, read from an `events` stream (`follow: true`): which revision of each
/// key the app holds, when wcbench read it, and the daemon's own timestamps.
///
/// The stream starts with the daemon's history (it survives restarts; from `since` on when given), so a
/// launch's events are there even when they happened before this connection: ``launchedAt`` is the daemon's timestamp of its
/// newest `sessionActivated`, and ``heldAt`` the timestamps of the keys received after it.
final class SyncEventApp {
    let connection: BenchConnection
    /// Per key, the newest revision the app holds (`syncReceived`, or `syncUnknownKey` for a key it
    /// did not register: kept all the same).
    private(set) var held: [String: String] = [:]
    /// When wcbench read the event of each key's newest revision (`Monotonic.now()`).
    private(set) var readAt: [String: UInt64] = [:]
    /// The daemon's timestamp (µs since 1970) of each key's newest revision.
    private(set) var heldAt: [String: Int64] = [:]
    /// The daemon's timestamp (µs since 1970) of its newest `sessionActivated`.
    private(set) var launchedAt: Int64?

    /// Follows the events of the daemon at `path`; with `since` (µs since 1970), the history from then
    /// on only, so the daemon does not replay its whole history (up to 10,000 events) while measured.
    init(_ path: String, since: Int64? = nil, deadline: UInt64) throws(BenchError) {
        connection = try BenchConnection.connect(path, retryUntil: deadline)
        let request = connection.request("events") {
            $0.set("follow", true)
            if let since { $0.set("since", EventTimestamp.format(microseconds: since)) }
        }
        _ = try connection.call(request, deadline: deadline)
    }

    /// Reads what arrived.
    func process() throws(BenchError) {
        try connection.fill()
        let now = Monotonic.now()
        while let line = try connection.nextLine() {
            guard line.event == "diagnostic", let event = line.data else { continue }
            let time = event["timestamp"]?.stringValue.flatMap(EventTimestamp.parse)
            switch event["event"]?.stringValue {
            case "sessionActivated":
                launchedAt = time
            case "syncReceived", "syncUnknownKey":
                guard let key = event["syncKey"]?.stringValue, let revision = event["syncRevision"]?.stringValue else {
                    throw BenchError("a sync event without syncKey/syncRevision: \(line.line)")
                }
                held[key] = revision
                readAt[key] = now
                heldAt[key] = time
            default:
                continue
            }
        }
        if connection.closed { throw BenchError("watchd closed the events stream") }
    }

    /// Whether the app holds every key of `expected` at its revision.
    func holds(_ expected: [String: String]) -> Bool {
        expected.allSatisfy { held[$0.key] == $0.value }
    }

    /// Reads until the app holds every key of `expected` at its revision.
    func wait(for expected: [String: String], deadline: UInt64) throws(BenchError) {
        while !holds(expected) {
            guard try Poller.waitReadable([connection], deadline: deadline) else {
                let missing = expected.filter { held[$0.key] != $0.value }.keys.sorted().prefix(5)
                throw BenchError("the watch never held \(missing.joined(separator: ", ")) at the phone's revision")
            }
            try process()
        }
    }
}
