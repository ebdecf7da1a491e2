import WatchPairHost
import WatchPairWire

/// `events`: the recent diagnostic events; with `follow`, then each new one as a stream.
struct EventsOperation: ControlOperation {
    static let name = "events"

    var follow = false

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        follow = try fields.only("follow") { fields throws(WCFailure) in try fields.bool() } ?? false
    }

    static func register(on router: inout ControlRouter, events: EventLog) {
        router.registerStream(Self.self) { request, call in
            guard request.follow else {
                await call.writer.send(.success(call.id, .object(["events": .array(events.recent.map(\.controlJSON))])))
                return
            }
            await follow(events, call: call)
        }
    }

    /// `events` with `follow`: the recent events, then each new one, as `diagnostic` stream events.
    /// Streams from the oldest event held until the client closes its side or the daemon stops.
    ///
    /// The response's result is `{"history": n}`: the first `n` `diagnostic` events are the history
    /// held when the request arrived, the rest happen after, so a client can treat the two apart
    /// (`wcctl events -n N --follow`). A client that falls more than the event log's capacity behind
    /// gets a `dropped` event (`{"count": n}`) for what it missed and continues with the oldest event
    /// still held.
    private static func follow(_ events: EventLog, call: ControlCall) async {
        let connection = call.connection
        let history = events.read(from: events.oldestPosition)
        let result = JSONValue.object(["history": .integer(Int64(history.events.count))])
        guard await connection.writer.send(.success(call.id, result)) else { return }
        for event in history.events {
            guard await connection.writer.send(.streamEvent(call.id, "diagnostic", event.controlJSON)) else { return }
        }
        var cursor = history.next
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
