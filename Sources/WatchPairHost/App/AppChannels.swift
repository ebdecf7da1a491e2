import WatchPairCore
import WatchPairWire

/// What an app may do with its host: the channels' operations (`+Messages`, `+UserInfo`, `+Context`,
/// `+Files`), what arrived for it and its acknowledgements (`+Delivery`), and the state it follows.
///
/// The one boundary between an app's code and the host's internals: `WCSession`, the daemons' engine
/// adapter and the daemons' control operations call these, never the engine or the store, so how the
/// host keeps a channel can change without them. A thin façade: each operation is the engine's (or a
/// store read the engine exposes no call for), with the engine's typed `WCFailure`s and its documented
/// behaviour; nothing is cached here. Handed out by the host (``PairHost/channels``,
/// ``HostContext/channels``); valid for the host's run (the store closes when it ends).
public struct AppChannels: Sendable {
    // Internal, never public: an app reaches neither, only the operations.
    let engine: PairEngine
    let store: PairStore

    /// The surface of the host serving `engine` with `store`.
    init(engine: PairEngine, store: PairStore) {
        self.engine = engine
        self.store = store
    }

    /// This app's side.
    public var role: Role { engine.configuration.role }

    /// The payload limits the channels enforce (7009 above them).
    public var limits: PayloadLimits { engine.configuration.limits }

    /// How the app runs now: its launch, until ``open()`` brings a background launch to the foreground.
    public var launch: LaunchMode {
        get async { await engine.launch }
    }

    /// The app's `files/` directory, where received files are handed over.
    public var filesDirectory: AppFilesDirectory { AppFilesDirectory(stateDirectory: store.directory) }

    /// The host's diagnostic events: subscribe to follow them, emit an app layer's own.
    public var diagnostics: DiagnosticsHub { engine.diagnostics }

    /// A snapshot of the link, the peer and the queues (`status`).
    public func status() async -> EngineStatus {
        await engine.status()
    }

    // What the app waits on: each fires after its kind of change, so a reader notes the generation,
    // reads, and waits after it.

    /// Which kinds of received content changed (received userInfo, context, finished transfers, files).
    public var appChanges: AppChanges { engine.appChanges }
    /// Fires when anything for the app changed (``appChanges``, any kind).
    public var appSignal: AsyncSignal { engine.appSignal }
    /// Fires when the link or reachability changed.
    public var stateSignal: AsyncSignal { engine.stateSignal }
    /// Fires when the engine became activated (serving the link).
    public var activationSignal: AsyncSignal { engine.activationSignal }
    /// Fires when outgoing content moved (queued, acknowledged, cancelled; a file's progress).
    public var contentSignal: AsyncSignal { engine.contentSignal }
    /// Fires when a live message started or ended.
    public var messageSignal: AsyncSignal { engine.messageSignal }

    /// Opens the app (`wcctl open`): a background launch moves to the foreground; whether it moved.
    @discardableResult
    public func open() async -> Bool {
        await engine.open()
    }

    /// Installs or uninstalls this app where the peer reads it (7006/7018 there while uninstalled).
    public func setInstalled(_ installed: Bool) async throws(WCFailure) {
        try await engine.setInstalled(installed)
    }

    /// Enables or disables the watch app's complication (7008 on the phone).
    public func setComplicationEnabled(_ enabled: Bool) async throws(WCFailure) {
        try await engine.setComplicationEnabled(enabled)
    }
}
