import WatchPairWire

/// The `receive` loop: print each item as one JSON line, then acknowledge it.
///
/// Acknowledgements are sent right after the line is written (output is unbuffered), and their responses
/// are matched by id as they come back, between stream events. `pendingAcks` holds one id per item
/// printed and not yet confirmed; the daemon confirms in order, so it stays as small as the socket
/// buffers allow.
struct ReceiveSession {
    /// What acknowledges one delivered item (docs/ControlProtocol.md, `ack`).
    enum Acknowledgement: Sendable, Hashable {
        /// A userInfo transfer: every received userInfo up to this delivery id is taken.
        case deliveryId(UInt64)
        /// A didFinish notice for this transfer.
        case finished(String)
        /// The received context of this version.
        case contextVersion(UInt64)

        /// Fills the `ack` request's field.
        func apply(to request: inout ControlRequest) {
            switch self {
            case .deliveryId(let id): request.set("deliveryId", id)
            case .finished(let transferId): request.set("finished", [transferId])
            case .contextVersion(let version): request.set("contextVersion", version)
            }
        }
    }

    /// How long to wait for the daemon to confirm acknowledgements before exiting.
    static let ackWait: Duration = .seconds(30)
    /// The same after an interrupt, when the user wants out quickly.
    static let ackWaitAfterInterrupt: Duration = .seconds(5)

    let client: ControlClient
    let streams: any OutputStreams
    /// False with `--no-ack`: print only.
    let acknowledge: Bool
    private(set) var pendingAcks: Set<Int64> = []

    init(client: ControlClient, streams: any OutputStreams, acknowledge: Bool) {
        self.client = client
        self.streams = streams
        self.acknowledge = acknowledge
    }

    /// The acknowledgement for an item, or nil for items that need none (messages, unknown kinds).
    static func acknowledgement(kind: String, data: JSONValue?) -> Acknowledgement? {
        switch (kind, data) {
        case ("userInfo", let data?):
            guard case .integer(let id)? = data[field: "deliveryId"], id >= 0 else { return nil }
            return .deliveryId(UInt64(id))
        case ("didFinish", let data?):
            guard case .string(let transferId)? = data[field: "transferId"] else { return nil }
            return .finished(transferId)
        case ("applicationContext", let data?):
            guard case .integer(let version)? = data[field: "version"], version >= 0 else { return nil }
            return .contextVersion(UInt64(version))
        default:
            return nil
        }
    }

    /// The error when the daemon ends a stream (an `end` event): it is going away.
    static func streamEnded(_ client: ControlClient) -> CLIError {
        CLIError(.notRunning, "\(client.target.daemonName) ended the stream (it is shutting down)")
    }

    /// Without `--follow`: prints and acknowledges the pending items, then waits for the confirmations.
    /// The daemon answers a page at a time (`more`: there is another); acknowledged pages are followed by
    /// the next until none is left. With `--no-ack` only the first page is shown.
    mutating func takePending(_ request: ControlRequest) throws(CLIError) {
        var page = request
        while true {
            let result = try client.call(page, wait: Payload.requestWait)
            for item in result[field: "items"]?.arrayElements ?? [] {
                guard case .string(let kind)? = item[field: "event"] else { continue }
                try deliver(kind: kind, data: item[field: "data"])
            }
            try awaitAcks(wait: Self.ackWait, throwOnTimeout: true)
            guard acknowledge, case .bool(true)? = result[field: "more"] else { return }
            var next = client.makeRequest("receive")
            next["follow"] = request["follow"]
            next["channels"] = request["channels"]
            page = next
        }
    }

    /// With `--follow`: prints and acknowledges items until interrupted (returns) or until the daemon
    /// goes away (throws `.notRunning`).
    mutating func follow(_ request: ControlRequest, interruptDescriptor: Int32) throws(CLIError) {
        try client.send(request)
        while true {
            guard let response = try client.next(deadline: nil, interruptDescriptor: interruptDescriptor) else {
                // Interrupted: give the daemon a moment to confirm what was taken, then stop.
                try awaitAcks(wait: Self.ackWaitAfterInterrupt, throwOnTimeout: false)
                return
            }
            if response.id == request.id {
                if let kind = response.event {
                    if kind == "end" { throw Self.streamEnded(client) }
                    try deliver(kind: kind, data: response.data)
                } else {
                    _ = try ControlClient.result(of: response)
                }
            } else {
                try confirmAck(response)
            }
        }
    }

    /// Prints one item, then acknowledges it.
    private mutating func deliver(kind: String, data: JSONValue?) throws(CLIError) {
        try streams.printLine(OutputFormatter.jsonLine(OutputFormatter.receiveRecord(kind: kind, data: data)))
        guard acknowledge, let ack = Self.acknowledgement(kind: kind, data: data) else { return }
        var request = client.makeRequest("ack")
        ack.apply(to: &request)
        try client.send(request)
        pendingAcks.insert(request.id)
    }

    /// Checks a response to one of our acks; other lines are ignored, except an error with `id: null`
    /// (the daemon could not read one of our lines).
    private mutating func confirmAck(_ response: ControlResponse) throws(CLIError) {
        if response.id == nil && response.ok == false { _ = try ControlClient.result(of: response) }
        guard response.event == nil, let id = response.id, pendingAcks.remove(id) != nil else { return }
        _ = try ControlClient.result(of: response)
    }

    /// Reads until every ack is confirmed; stream events read meanwhile are not printed (durable ones
    /// come again, unacknowledged, next time).
    private mutating func awaitAcks(wait: Duration, throwOnTimeout: Bool) throws(CLIError) {
        let deadline = ContinuousClock.now.advanced(by: wait)
        while !pendingAcks.isEmpty {
            guard let response = try client.next(deadline: deadline, interruptDescriptor: nil) else {
                if throwOnTimeout {
                    throw CLIError(.failure, "\(client.target.daemonName) did not confirm the acknowledgements within \(wait.formattedSeconds)")
                }
                return
            }
            try confirmAck(response)
        }
    }
}
