import WatchPairHost
import WatchPairWire

/// Every control operation a daemon serves (docs/ControlProtocol.md): the channels' (``ChannelOperations``),
/// the reliability layer's and keyed sync's, each registered by its own face.
public enum DaemonOperations {
    /// The operations' request types. A test holds the router of a running daemon to this list.
    static let requestTypes: [any ControlOperation.Type] = [
        StatusOperation.self, SendOperation.self, SendDataOperation.self, TransferOperation.self, TransfersOperation.self,
        CancelOperation.self, TransferFileOperation.self, FilesOperation.self, CancelFileOperation.self,
        ContextSetOperation.self, ContextGetOperation.self, ReceiveOperation.self, AckOperation.self, AnswerOperation.self,
        EventsOperation.self, WaitOperation.self, RequestOperation.self, ServeOperation.self, RespondOperation.self,
        HealthOperation.self, QueueOperation.self, QueueCancelOperation.self, ConnectOperation.self, DisconnectOperation.self,
        SyncSetOperation.self, SyncGetOperation.self, SyncListOperation.self, SyncNowOperation.self, UninstallOperation.self,
        InstallOperation.self, OpenOperation.self, SetComplicationOperation.self, TransferComplicationOperation.self,
        QuirkListOperation.self, QuirkSetOperation.self, QuirkClearOperation.self,
        WatchesOperation.self, PairWatchOperation.self, UnpairWatchOperation.self, SwitchWatchOperation.self,
    ]

    /// The daemon's operations over `context`, `router` (live messages), `connection` (the layer) and, on a
    /// phone with several watches, `watches`.
    static func router(context: HostContext, router: MessageRouter, connection: AppConnection, watches: PhoneWatches? = nil) -> ControlRouter {
        var operations = ControlRouter()
        ChannelOperations(context: context, router: router, connection: connection).register(on: &operations)
        connection.registerOperations(on: &operations)
        connection.registerSyncOperations(on: &operations)
        WatchOperations(watches: watches).register(on: &operations)
        operations.connectionStopped = { id in
            // A connection that stopped reading no longer handles messages; its unanswered ones fail with 7014.
            await router.detach(clientId: id)
            await connection.stopServing(clientId: id)
        }
        return operations
    }

    /// Reads one request line as the daemons do, without serving it: the request's id, or the 7008 (or
    /// 7010) the daemon would answer. For fuzzing and tools.
    public static func read(_ line: some Collection<UInt8>) -> Result<Int64, ControlLineError> {
        readingRouter.route(line).map(\.id)
    }

    /// The operations with handlers that do nothing: reading only.
    static let readingRouter: ControlRouter = {
        var router = ControlRouter()
        func add<Operation: ControlOperation>(_ type: Operation.Type) { router.registerStream(type) { _, _ in } }
        for type in requestTypes { add(type) }
        return router
    }()
}
