import WatchPairControlClient
import WatchPairTimeline
import WatchPairWire

/// `events --follow`, of one app or of both at once: each app's history (the daemon says how many
/// events it is, docs/ControlProtocol.md `events`), merged and selected with `-n`, then every new event
/// that passes the filters, as it arrives.
///
/// One `poll(2)` waits on every app's socket and the interrupt pipe, so neither app's events wait for
/// the other's. New events that arrive together are printed in time order.
struct EventFollow {
    /// The apps followed, each with its open `events` request.
    private var streams: [(client: ControlClient, requestId: Int64, remaining: Int64?, history: [SessionEvent])] = []
    private var historyPrinted = false
    /// How long a drain waits for the rest of a line already under way (a bound, never a guess at timing).
    private static let lineWait: Duration = .milliseconds(2)

    /// Sends a following `events` request to each of `clients`; with `since` (µs since 1970), each daemon
    /// replays its history from then on only (the selection still filters what it prints).
    init(clients: [ControlClient], since: Int64? = nil) throws(CLIError) {
        for client in clients {
            var request = client.makeRequest("events")
            request.set("follow", true)
            if let since { request.set("since", EventTimestamp.format(microseconds: since)) }
            try client.send(request)
            streams.append((client, request.id, nil, []))
        }
    }

    /// Prints until `interrupt` becomes readable (return: exit 0) or an app ends its stream (exit 3).
    mutating func run(
        _ selection: EventSelection, interrupt: Int32, print: (SessionEvent) throws(CLIError) -> Void
    ) throws(CLIError) {
        var held: [SessionEvent] = []
        while true {
            var fresh: [SessionEvent] = []
            var ended: ControlClient?
            for index in streams.indices where ended == nil {
                if try !drain(index, into: &fresh) { ended = streams[index].client }
            }
            if !historyPrinted, streams.allSatisfy({ $0.remaining == 0 }) {
                historyPrinted = true
                for event in selection.apply(EventSelection.merge(streams.map(\.history))) { try print(event) }
            }
            held += fresh
            if historyPrinted {
                for event in EventSelection.merge([held]).filter(selection.matches) { try print(event) }
                held = []
            }
            // What came before an app's end is printed first, then the end is exit 3.
            if let ended { throw ReceiveSession.streamEnded(ended) }
            if try waitForInput(interrupt) == false { return }
        }
    }

    /// Takes every complete line the app has sent so far; false when the app ended its stream.
    private mutating func drain(_ index: Int, into fresh: inout [SessionEvent]) throws(CLIError) -> Bool {
        let client = streams[index].client
        while let response = try client.next(deadline: ContinuousClock.now + Self.lineWait, interruptDescriptor: nil) {
            guard response.id == streams[index].requestId else { continue }
            guard let kind = response.event else {
                streams[index].remaining = try ControlClient.result(of: response)[field: "history"]?.integerValue ?? 0
                continue
            }
            if kind == "end" { return false }
            guard kind == "diagnostic" else { continue }
            let event = try EventQuery.event(response.data ?? .object([:]), from: client.target)
            if let remaining = streams[index].remaining, remaining > 0 {
                streams[index].history.append(event)
                streams[index].remaining = remaining - 1
            } else {
                fresh.append(event)
            }
        }
        return true
    }

    /// Waits until an app's socket or the interrupt pipe is readable; false for the interrupt.
    private func waitForInput(_ interrupt: Int32) throws(CLIError) -> Bool {
        do {
            let connections = streams.lazy.map { $0.client.connection }
            let ready = try ControlClientConnection.readable(connections, interrupt: interrupt, until: .never)
            return ready.last != streams.count
        } catch {
            throw CLIError.system("cannot wait for the daemons' events", errno: error.errno ?? 0)
        }
    }
}
