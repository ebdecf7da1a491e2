import Foundation
import Logging
import WatchConnection

/// Launch-order-safe sync of registered keys between the two apps (docs/KeyedSync.md), over a `WatchConnection`.
///
/// ```swift
/// let sync = KeyedSync(connection: connection, side: .phone, configuration: .init(storageDirectory: dir))
/// let profile = sync.object("profile", as: Profile.self)
/// try profile.set(Profile(name: "Ada"))   // sent at once: .all, .automaticSmall
/// ```
///
/// Each app pushes a snapshot of its published keys as its application context (latest wins, so an app
/// that was off receives only the newest), and the peer confirms it; keys the peer has not confirmed stay
/// `needSync` and are pushed again at activation, whenever the peer becomes reachable, and with backoff
/// while it stays reachable (``PushRetry``), except a snapshot the newest push, still unconfirmed, carries
/// (its context is the peer's current one). The watch asks
/// for the phone's snapshot at activation and on reachability (the handshake: a message when reachable,
/// otherwise a queued userInfo the phone answers when it next runs), so either app may start first.
/// Received values are applied only when their revision is newer (``SyncLedger``).
///
/// One per app, created after its `WatchConnection` and before anything else registers the
/// `KeyedSync.*` request types. The ledger is on disk before a change is reported, when a storage
/// directory is given.
@MainActor
public final class KeyedSync {
    /// Which app this is.
    public let side: SyncSide
    let connection: WatchConnection
    let configuration: KeyedSyncConfiguration
    let logger: Logger
    var ledger: SyncLedger
    let file: SyncLedgerFile?
    /// Time since the start, on the injected clock.
    let elapsed: @Sendable () -> Duration
    var eventSubscribers: [UUID: AsyncStream<KeyedSyncEvent>.Continuation] = [:]
    var batchSubscribers: [UUID: AsyncStream<[KeyedSyncEvent]>.Continuation] = [:]
    var updateSubscribers: [String: [UUID: AsyncStream<Data>.Continuation]] = [:]
    /// Counts pushes, so only the newest one's failure is reported (an older one was superseded).
    var pushGeneration: UInt64 = 0
    var statusTask: Task<Void, Never>?
    /// When an unconfirmed push is sent again while the peer stays reachable.
    var pushRetry: PushRetry
    /// The armed retry of ``pushRetry``.
    var retryTimer: Task<Void, Never>?
    /// Sleeps on the injected clock.
    let sleep: @Sendable (Duration) async throws -> Void
    /// Pushes and handshakes in flight, so `close()` ends them.
    var tasks: [UUID: Task<Void, Never>] = [:]

    /// Keyed sync for this app over `connection`; reads the ledger and starts following the connection.
    public init(
        connection: WatchConnection,
        side: SyncSide,
        configuration: KeyedSyncConfiguration = KeyedSyncConfiguration(),
        clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "KeyedSync")
    ) {
        self.connection = connection
        self.side = side
        self.configuration = configuration
        self.logger = logger
        elapsed = Self.elapsedTime(on: clock)
        sleep = Self.sleeper(on: clock)
        pushRetry = PushRetry(initial: configuration.retryDelay, maximum: configuration.maxRetryDelay)
        file = configuration.storageDirectory.map(SyncLedgerFile.init(directory:))
        let loaded = file?.load(side: side, setAsideSuffix: "\(Int(configuration.wallClockOrigin.timeIntervalSince1970))")
        ledger = SyncLedger(side: side, maxAutoSyncSize: configuration.maxAutoSyncSize, records: loaded?.records ?? [:])
        if let setAside = loaded?.setAside { emit(.storageFailed(reason: setAside)) }
        registerHandlers()
        let states = connection.connectionState
        statusTask = Task { [weak self] in
            var previous: ConnectionStatus?
            for await status in states {
                guard let self else { return }
                self.statusChanged(from: previous, to: status)
                previous = status
            }
        }
    }

    isolated deinit {
        close()
    }

    /// Stops following the connection, ends the pushes and handshakes in flight (what they did not
    /// get confirmed stays `needSync`, on disk) and finishes the event and update streams. For an owner
    /// with a lifetime of its own (the daemons stop it before the connection closes).
    public func close() {
        statusTask?.cancel()
        retryTimer?.cancel()
        for task in tasks.values { task.cancel() }
        tasks = [:]
        for continuation in eventSubscribers.values { continuation.finish() }
        for continuation in batchSubscribers.values { continuation.finish() }
        for continuation in updateSubscribers.values.flatMap(\.values) { continuation.finish() }
    }

    /// Runs `body` in a task that `close()` cancels.
    func spawn(_ body: @escaping @MainActor () async -> Void) {
        let id = UUID()
        tasks[id] = Task { [weak self] in
            await body()
            self?.tasks[id] = nil
        }
    }

    private static func elapsedTime<C: Clock<Duration>>(on clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }

    private static func sleeper<C: Clock<Duration>>(on clock: C) -> @Sendable (Duration) async throws -> Void {
        { try await clock.sleep(until: clock.now.advanced(by: $0), tolerance: nil) }
    }

    /// Now, in seconds since 1970: the configured origin plus the clock's elapsed time.
    var wallNow: Double {
        let (seconds, attoseconds) = elapsed().components
        return configuration.wallClockOrigin.timeIntervalSince1970 + Double(seconds) + Double(attoseconds) / 1e18
    }

    // MARK: Keys

    /// Registers `key` (again: changes its options). A value the peer sent before is kept and now held.
    public func register(_ key: String, availability: SyncAvailability = .all, policy: SyncPolicy = .automaticSmall) {
        do {
            try commit(.register(key, SyncKeyOptions(availability: availability, policy: policy)))
        } catch {
            emit(.storageFailed(reason: error.description))
        }
    }

    /// Changes `key` to `value`: a new revision, sent at once when the key is automatic and small enough.
    ///
    /// - Throws: `KeyedSyncError.keyNotRegistered`, `.coding` when `value` does not encode,
    ///   `.storageFailed` when the ledger cannot be written (nothing changed then).
    public func set<T: Encodable>(_ value: T, for key: String) throws(KeyedSyncError) {
        guard ledger.records[key]?.options != nil else { throw .keyNotRegistered(key) }
        let data: Data
        do {
            data = try JSONEncoder().encode(value)
        } catch {
            throw .coding(key: key, description: String(describing: error))
        }
        try commit(.set(key, data))
    }

    /// The value held for `key`, decoded; nil when there is none.
    public func value<T: Decodable>(_ type: T.Type, for key: String) throws(KeyedSyncError) -> T? {
        guard let data = ledger.records[key]?.value else { return nil }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw .coding(key: key, description: String(describing: error))
        }
    }

    /// Every key this app knows (registered, or sent by the peer), by key.
    public var keys: [SyncKeyStatus] {
        ledger.records.keys.sorted().compactMap { key in ledger.records[key].map { SyncKeyStatus(key: key, record: $0) } }
    }

    /// One key's status, or nil when unknown.
    public func status(of key: String) -> SyncKeyStatus? {
        ledger.records[key].map { SyncKeyStatus(key: key, record: $0) }
    }

    /// A typed view of `key`, registering it with these options.
    public func object<T: Codable & Sendable>(
        _ key: String, as type: T.Type = T.self, availability: SyncAvailability = .all, policy: SyncPolicy = .automaticSmall
    ) -> SyncObject<T> {
        register(key, availability: availability, policy: policy)
        return SyncObject(key: key, sync: self)
    }

    // MARK: Syncing

    /// Sends `key` if it needs a sync (also a `.manual` key); returns once the peer confirmed or the
    /// push failed (see `status(of:)`).
    public func syncIfNeeded(_ key: String) async {
        await request(.key(key))
    }

    /// Sends every eligible key that needs a sync. Runs by itself at activation and on reachability.
    public func syncRegisteredKeysIfNeeded() async {
        await request(.needing)
    }

    /// Sends every eligible key, needed or not (what the phone answers the watch's handshake with).
    public func syncSnapshot() async {
        await request(.snapshot)
    }

    /// Asks the peer for its snapshot (the watch's half of the handshake; runs by itself at activation
    /// and on reachability): a message when reachable, otherwise a queued userInfo.
    public func requestSnapshot() async {
        emit(.requested(by: side))
        do {
            let snapshot = try await connection.send(
                SyncSnapshotRequest(), strategy: .messageWithUserInfoFallback, delivery: .queued,
                retryPolicy: RetryPolicy(maxAttempts: 3, timeout: configuration.confirmationTimeout))
            try commit(.received(snapshot.entries, at: wallNow))
        } catch {
            // The phone also pushes its snapshot as its context when it answers, so nothing is lost.
            emit(.unconfirmed(reason: "snapshot request: \(error)"))
        }
    }

    /// Sends what `scope` covers and waits for its push; `triggered`: an automatic trigger's, which
    /// sends nothing when the push in flight carries the same snapshot.
    func request(_ scope: SyncLedger.Scope, triggered: Bool = false) async {
        do {
            let action = try commit(triggered ? .triggered(scope) : .syncRequested(scope), pushing: false)
            if let snapshot = action.send { await push(snapshot) }
        } catch {
            emit(.storageFailed(reason: error.description))
        }
    }

    // MARK: Events

    /// Every event from now on (each subscriber buffers the newest `configuration.eventBuffer`).
    public var events: AsyncStream<KeyedSyncEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: KeyedSyncEvent.self, bufferingPolicy: .bufferingNewest(configuration.eventBuffer))
        let id = UUID()
        eventSubscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in Task { @MainActor in self?.eventSubscribers[id] = nil } }
        return stream
    }

    /// Every event from now on, one array per change of the ledger (a snapshot's 100 keys in one), so a
    /// consumer that writes them somewhere (the daemons' journal and history) takes a burst in one turn.
    /// Each subscriber buffers the newest `configuration.eventBuffer` arrays.
    package var eventBatches: AsyncStream<[KeyedSyncEvent]> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: [KeyedSyncEvent].self, bufferingPolicy: .bufferingNewest(configuration.eventBuffer))
        let id = UUID()
        batchSubscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in Task { @MainActor in self?.batchSubscribers[id] = nil } }
        return stream
    }

    /// Values of `key` received from the peer from now on, as JSON (each subscriber buffers the newest 16).
    public func updates(of key: String) -> AsyncStream<Data> {
        let (stream, continuation) = AsyncStream.makeStream(of: Data.self, bufferingPolicy: .bufferingNewest(16))
        let id = UUID()
        updateSubscribers[key, default: [:]][id] = continuation
        continuation.onTermination = { [weak self] _ in Task { @MainActor in self?.updateSubscribers[key]?[id] = nil } }
        return stream
    }

    func emit(_ event: KeyedSyncEvent) {
        emit([event])
    }

    /// `events`, in order: to each subscriber of ``events`` one by one, to each of ``eventBatches`` as one.
    func emit(_ events: [KeyedSyncEvent]) {
        guard !events.isEmpty else { return }
        for event in events { logger.log(level: event.level, "\(event.sentence)", metadata: event.metadata) }
        for continuation in eventSubscribers.values {
            for event in events { continuation.yield(event) }
        }
        for continuation in batchSubscribers.values { continuation.yield(events) }
    }
}
