import WatchPairCore
import WatchPairWire

/// What a control handler may use of the host it serves: the engine, the store, the recent events,
/// the clock, and the host's process and client count (for `status`).
public struct HostContext: Sendable {
    /// The engine serving the link.
    let engine: PairEngine
    /// The durable store.
    let store: PairStore
    /// The recent diagnostic events (`wcctl events`).
    public let events: EventLog
    /// The host's clock.
    public let clock: any Clock<Duration>
    /// The process id `status` reports.
    public let pid: Int32
    /// The number of attached control clients.
    public let clientCount: @Sendable () -> Int
    /// What the app may do with the host (``AppChannels``): the operations handlers call.
    public let channels: AppChannels
    /// The pair's name as `status` and the journal (`WC_PAIR`) give it: `default` for the default pair.
    public let pair: String
    /// Event lines journald or stderr's reader could not take in time (``EventWriter/dropped``).
    public let eventLinesDropped: @Sendable () -> Int

    /// A context for a control handler.
    public init(
        engine: PairEngine, store: PairStore, events: EventLog, clock: any Clock<Duration>, pid: Int32,
        clientCount: @escaping @Sendable () -> Int, channels: AppChannels? = nil, pair: String = PairName.defaultPairName,
        eventLinesDropped: @escaping @Sendable () -> Int = { 0 }
    ) {
        self.pair = pair
        self.eventLinesDropped = eventLinesDropped
        self.engine = engine
        self.store = store
        self.events = events
        self.clock = clock
        self.pid = pid
        self.clientCount = clientCount
        self.channels = channels ?? AppChannels(engine: engine, store: store)
    }

    /// The `status` result (docs/ControlProtocol.md): the engine's status, `pid` and `controlClients`.
    public func statusJSON() async -> JSONValue {
        let status = await engine.status()
        let statistics = store.statistics
        return .object([
            "role": .string(status.role.rawValue),
            "pair": .string(pair),
            "activated": .bool(status.activated),
            "launch": .string(status.launch.rawValue),
            "reachable": .bool(status.reachable),
            "paired": .bool(status.paired),
            "peerInstalled": .bool(status.peerInstalled),
            "peerListening": .bool(status.peerListening),
            "installed": .bool(status.installed),
            "peerComplicationEnabled": .bool(status.peerComplicationEnabled),
            "complicationEnabled": .bool(status.complicationEnabled),
            "complicationTransfersRemaining": .integer(Int64(status.complicationTransfersRemaining)),
            "peerUnitFileState": status.peerUnitFileState.map { .string($0.rawValue) } ?? .null,
            "peerRunning": .bool(status.peerRunning),
            "link": .string(status.link),
            "peerLaunch": status.peerLaunch.map { .string($0.rawValue) } ?? .null,
            "outstandingTransfers": .integer(Int64(status.outstandingTransfers)),
            "inboxPending": .integer(Int64(status.inboxPending)),
            "messagesInFlight": .integer(Int64(status.messagesInFlight)),
            "contextSentVersion": ControlJSON.integer(status.contextSentVersion),
            "contextAckedVersion": ControlJSON.integer(status.contextAckedVersion),
            "contextReceivedVersion": ControlJSON.integer(status.contextReceivedVersion),
            "outstandingFiles": .integer(Int64(status.outstandingFiles)),
            "receivingFile": .bool(status.receivingFile),
            "pid": .integer(Int64(pid)),
            "controlClients": .integer(Int64(clientCount())),
            // Write transactions that changed rows since the store opened (wcbench: commits per transfer).
            "storeCommits": .integer(Int64(statistics.commits)),
            // Read transactions since the store opened (wcbench: reads per transfer).
            "storeReads": .integer(Int64(statistics.reads)),
            // Events a slow subscriber lost (the oldest dropped past its bound), and event lines dropped
            // while journald or stderr's reader was behind (the history file still has those events).
            "diagnosticsDropped": .integer(Int64(engine.diagnostics.droppedEvents)),
            "eventLinesDropped": .integer(Int64(eventLinesDropped())),
        ])
    }
}
