import WatchPairHost
import WatchPairWire

/// `events`: the recent diagnostic events; with `follow`, then each new one as a stream.
struct EventsOperation: ControlOperation {
    static let name = "events"

    var follow = false
    /// With `follow`: the kept events older than this (µs since 1970, from an ISO 8601 timestamp) are
    /// not replayed, so a client that follows from a moment on does not make the daemon send its whole
    /// history first.
    var since: Int64?

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        while let field = try fields.next() {
            switch field {
            case "follow": follow = try fields.bool() ?? false
            case "since":
                guard let text = try fields.string() else { continue }
                guard let microseconds = EventTimestamp.parse(text) else { throw fields.wrong("an ISO 8601 timestamp") }
                since = microseconds
            default: try fields.skip()
            }
        }
    }

    static func register(on router: inout ControlRouter, events: EventLog) {
        router.registerStream(Self.self) { request, call in
            guard request.follow else {
                await call.writer.send(.success(call.id, .object(["events": .array(await events.history().events.map(\.controlJSON))])))
                return
            }
            await follow(events, since: request.since, call: call)
        }
    }

    /// `events` with `follow`: the recent events, then each new one, as `diagnostic` stream events.
    /// Streams from the oldest event held (the oldest at or after `since`) until the client closes its
    /// side or the daemon stops.
    ///
    /// The response's result is `{"history": n}`: the first `n` `diagnostic` events are the history
    /// held when the request arrived, the rest happen after, so a client can treat the two apart
    /// (`wcctl events -n N --follow`). A client that falls more than the event log's capacity behind
    /// gets a `dropped` event (`{"count": n}`) for what it missed and continues with the oldest event
    /// still held.
    private static func follow(_ events: EventLog, since: Int64?, call: ControlCall) async {
        let connection = call.connection
        let (kept, start) = if let since { await events.history(since: since) } else { await events.history() }
        let result = JSONValue.object(["history": .integer(Int64(kept.count))])
        guard await connection.writer.send(.success(call.id, result)) else { return }
        for event in kept {
            guard await connection.writer.send(.streamEvent(call.id, "diagnostic", event.controlJSON)) else { return }
        }
        var cursor = start
        while !connection.isClosing, !Task.isCancelled {
            let seen = events.signal.generation
            let (batch, next, dropped) = events.read(from: cursor)
            if dropped > 0 {
                guard await connection.writer.send(.streamEvent(call.id, "dropped", .object(["count": ControlJSON.integer(dropped)]))) else { return }
            }
            for event in batch {
                guard await connection.writer.send(.streamEvent(call.id, "diagnostic", event.controlJSON)) else { return }
            }
            cursor = next
            await Waiting.any([(events.signal, seen), (connection.closing, 0)])
        }
    }
}
