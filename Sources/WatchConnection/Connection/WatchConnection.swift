import Foundation
import Logging
import Observation

/// The reliability layer over a `WCSession`: typed requests with retries, fallback channels, a persisted
/// queue, exactly-once execution at the receiver, health and recovery suggestions (docs/WatchConnection.md).
///
/// ```swift
/// let connection = WatchConnection(session: WCSession.default)   // import WatchConnectionWCSession
/// connection.register(FetchRecipe.self) { request in try await store.recipe(request.id) }
/// let recipe = try await connection.send(FetchRecipe(id: "42"), retryPolicy: .patient)
/// ```
///
/// One per app. It is `@MainActor` and `@Observable`, so views read `sessionHealth`, `isReachable`,
/// `pendingRequestCount` synchronously. It activates the session when created and takes over the
/// session's events (the session's delegate, for `WCSessionAdapter`): create it before anything else
/// uses the session. Time (retry delays, timeouts, queue expiry, dedupe windows) comes from the
/// injected clock only.
///
/// Invariants: every `send` ends with its response or exactly one `WatchConnectionError`; a request
/// id is run at most once by the receiving connection (see `ResponseLedger` for the bound); the queue
/// holds at most `queueCapacity` requests and is on disk (when a directory is given) before `send`
/// reports it queued.
@MainActor
@Observable
public final class WatchConnection {
    /// Whether the session is activated.
    public internal(set) var activationState: SessionActivationState = .notActivated
    /// Whether the counterpart is reachable for live messages.
    public internal(set) var isReachable = false
    /// The health, from consecutive failures.
    public internal(set) var sessionHealth: SessionHealth = .healthy
    /// `.passive` until `connect()`, again after `disconnect()`.
    public internal(set) var connectionMode: ConnectionMode = .passive
    /// Requests waiting in the queue.
    public internal(set) var pendingRequestCount = 0
    /// The current status (what `connectionState` yields).
    public internal(set) var currentConnectionStatus = ConnectionStatus(isActivated: false, isReachable: false, isCounterpartAppInstalled: false)

    @ObservationIgnored let session: any WCSessionProviding
    @ObservationIgnored let configuration: WatchConnectionConfiguration
    @ObservationIgnored let logger: Logger
    /// Elapsed time, sleeps and wall time, on the injected clock.
    @ObservationIgnored let time: ConnectionTime
    @ObservationIgnored var health: HealthMachine
    @ObservationIgnored var suggestionRules: SuggestionRules
    /// The persisted request queue and its flush.
    @ObservationIgnored let queueRunner: RequestQueueRunner
    /// The receiving side: handlers and exactly-once execution.
    @ObservationIgnored let receiver: RequestReceiver
    @ObservationIgnored var jitter: SeededRandom
    /// Sends waiting for their end, by request id.
    @ObservationIgnored var pending: [UUID: PendingRequest] = [:]
    /// The pending requests' deadlines, served by one sleeper (`WatchConnection+Deadlines`).
    @ObservationIgnored var deadlines = DeadlineSchedule()
    @ObservationIgnored var deadlineSleeper: Task<Void, Never>?
    /// `waitForActivation`/`waitForConnection` callers.
    @ObservationIgnored let statusWaiters: StatusWaiters
    @ObservationIgnored let statusBroadcast = Broadcast<ConnectionStatus>(limit: 16, keepsBacklog: false)
    @ObservationIgnored let eventBroadcast = Broadcast<DiagnosticEvent>(limit: 256, keepsBacklog: true)
    @ObservationIgnored let recordBroadcast = Broadcast<DiagnosticRecord>(limit: 256, keepsBacklog: true)
    @ObservationIgnored let suggestionBroadcast = Broadcast<RecoverySuggestion>(limit: 16, keepsBacklog: true)
    /// The session's events, in order; ends in `deinit`.
    @ObservationIgnored let sessionEvents: AsyncStream<SessionInput>.Continuation
    @ObservationIgnored let barriers = SessionBarriers()
    @ObservationIgnored let sessionEventReceiver: @Sendable (SessionEvent) -> Void
    /// Every task the connection starts, so `close()` ends them all.
    @ObservationIgnored let tasks: TaskSet

    /// A connection over `session`; activates it.
    ///
    /// - Parameters:
    ///   - session: Any `WCSessionProviding`: `WCSessionAdapter`, `FlakySession`, or an adapter of Apple's.
    ///   - configuration: Queue directory, bounds and thresholds.
    ///   - clock: The clock of every timer (a `ManualClock` in tests).
    ///   - logger: Where diagnostic events are logged (never bootstrapped here).
    ///
    /// The persisted queue, recorded responses and held requests are read here; an unreadable file is renamed and
    /// reported as a `storageFileSetAside` event (kept for the first subscriber). Session events are
    /// consumed by a task that holds the connection weakly and ends when the connection is released or
    /// closed: WatchConnectivitySwift's API activates on creation, so there is no `run()` to call; a host
    /// that owns the connection's lifetime calls `close()`.
    public init(
        session: any WCSessionProviding,
        configuration: WatchConnectionConfiguration = WatchConnectionConfiguration(),
        clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "WatchConnection")
    ) {
        self.session = session
        self.configuration = configuration
        self.logger = logger
        time = ConnectionTime(clock: clock, origin: configuration.wallClockOrigin)
        let tasks = TaskSet()
        self.tasks = tasks
        statusWaiters = StatusWaiters(sleep: time.sleep, tasks: tasks)
        health = HealthMachine(thresholds: configuration.healthThresholds)
        suggestionRules = SuggestionRules(dedupeWindow: configuration.suggestionDedupeWindow)
        jitter = configuration.jitterSeed.map(SeededRandom.init(seed:)) ?? SeededRandom()
        // Bound: a session reports events one at a time; 10,000 unprocessed ones means the main actor
        // is stuck, and the newest are dropped (a dropped message's sender times out and retries).
        let (events, input) = AsyncStream.makeStream(of: SessionInput.self, bufferingPolicy: .bufferingOldest(10_000))
        sessionEvents = input
        let receiverSetAside: [StorageSetAside]
        (receiver, receiverSetAside) = RequestReceiver.load(
            configuration, session: session, tasks: tasks, time: time, logger: logger, emit: { input.yield(.emit($0)) })
        let queueSetAside: StorageSetAside?
        (queueRunner, queueSetAside) = RequestQueueRunner.load(configuration, logger: logger)
        pendingRequestCount = queueRunner.requests.count
        // A live request (or ping) is taken where the session reports it, with no hop to the main actor
        // (docs/WatchConnection.md, "Threads"); every other event goes through the main actor, in order.
        let receiver = receiver
        sessionEventReceiver = { event in
            if case .message(let message, let reply) = event, receiver.receiveLive(message, reply: reply) { return }
            input.yield(.event(event))
        }
        queueRunner.connection = self
        for setAside in [queueSetAside].compactMap({ $0 }) + receiverSetAside {
            emit(.storageFileSetAside(path: setAside.path, reason: setAside.reason))
        }
        tasks.start { [weak self] in
            for await input in events {
                guard let self else { return }
                switch input {
                case .event(let event): self.handle(event)
                case .emit(let event): self.emit(event)
                case .barrier(let id): self.barriers.passed(id)
                }
            }
        }
        session.activate(reportingTo: sessionEventReceiver)
    }

    isolated deinit {
        receiver.stop()
        sessionEvents.finish()
        statusBroadcast.finish()
        eventBroadcast.finish()
        recordBroadcast.finish()
        suggestionBroadcast.finish()
    }

    // MARK: Streams

    /// The status now, then every change. Each subscriber buffers the newest 16 statuses.
    public var connectionState: AsyncStream<ConnectionStatus> {
        statusBroadcast.subscribe(initial: currentConnectionStatus)
    }

    /// Every diagnostic event from now on. Each subscriber buffers the newest 256 (older ones are
    /// dropped if it falls behind); events from before the first subscriber are kept (256) for it.
    public var diagnosticEvents: AsyncStream<DiagnosticEvent> {
        eventBroadcast.subscribe()
    }

    /// `diagnosticEvents` with each event's request id and attempt (`WC_REQUEST_ID`, `WC_ATTEMPT`), for a
    /// host that logs the layer's events itself. Buffered like `diagnosticEvents`.
    public var diagnosticRecords: AsyncStream<DiagnosticRecord> {
        recordBroadcast.subscribe()
    }

    /// Every recovery suggestion made (each at most once per dedupe window). Buffers the newest 16.
    public var recoverySuggestions: AsyncStream<RecoverySuggestion> {
        suggestionBroadcast.subscribe()
    }

    // MARK: Events

    /// Logs `event` with its context and hands it to `diagnosticEvents` and `diagnosticRecords`.
    func emit(_ event: DiagnosticEvent, requestID: UUID? = nil, attempt: Int? = nil) {
        let record = DiagnosticRecord(event, requestID: requestID, attempt: attempt)
        logger.log(level: event.level, "\(event.sentence)", metadata: record.metadata)
        eventBroadcast.publish(event)
        recordBroadcast.publish(record)
    }

    /// Feeds the suggestion rules; makes the suggestion they return.
    func suggest(_ event: SuggestionRules.Event) {
        guard case .suggest(let suggestion) = suggestionRules.event(event, at: time.elapsed()) else { return }
        emit(.recoverySuggested(suggestion))
        suggestionBroadcast.publish(suggestion)
    }

    /// Counts the outcome of request `id` once (`RequestOutcome`): its later outcomes (retries, a
    /// fallback's timeout, another flush) are not counted again.
    func count(_ outcome: RequestOutcome, of id: UUID) {
        guard let request = pending[id], !request.outcomeCounted else { return }
        pending[id]?.outcomeCounted = true
        record(outcome)
    }

    /// Feeds `outcome` to the health machine and, for a failure, to the suggestion rules with what the
    /// session says of the counterpart now.
    func record(_ outcome: RequestOutcome) {
        let event: HealthMachine.Event = outcome == .succeeded ? .succeeded : .failed
        if case .changed(let from, let to) = health.event(event) {
            sessionHealth = to
            emit(.healthChanged(from: from, to: to))
            suggest(.healthChanged(to))
        }
        if case .failed(let error) = outcome {
            let counterpart = CounterpartState(appInstalled: session.isCounterpartAppInstalled, deviceOn: session.isCounterpartDeviceOn)
            suggest(.requestFailed(error, counterpart: counterpart))
        }
    }

    private func handle(_ event: SessionEvent) {
        switch event {
        case .activationCompleted(_, let error):
            if error != nil { suggest(.activationFailed) }
            refreshStatus()
        case .deactivated, .stateChanged:
            refreshStatus()
        case .message(let message, let reply):
            receive(message, route: reply.map(ResponseRoute.reply) ?? .none, durable: false)
        case .userInfo(let userInfo):
            receive(userInfo, route: .userInfo, durable: true)
        case .applicationContext(let context):
            receive(context, route: .userInfo, durable: true)
        }
    }

    /// Reads the session's state; reports and acts on what changed.
    func refreshStatus() {
        let status = ConnectionStatus(
            isActivated: session.activationState == .activated,
            isReachable: session.activationState == .activated && session.isReachable,
            isCounterpartAppInstalled: session.isCounterpartAppInstalled)
        let old = currentConnectionStatus
        guard status != old else { return }
        currentConnectionStatus = status
        activationState = session.activationState
        isReachable = status.isReachable
        if status.isActivated != old.isActivated { emit(status.isActivated ? .sessionActivated : .sessionDeactivated) }
        if status.isReachable != old.isReachable {
            emit(.reachabilityChanged(status.isReachable))
            suggest(.reachabilityChanged)
        }
        statusBroadcast.publish(status)
        statusWaiters.resolve(with: status)
        if connectionMode == .active { queueRunner.flush() }
    }
}
