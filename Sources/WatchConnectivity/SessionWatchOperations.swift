import WatchPairCore
import WatchPairHost
import WatchPairWire

/// A `WCSession` phone app's watches on its control socket (docs/Watches.md): `watches`, `switch`, `pair`
/// and `unpair`, answered as `phoned` answers them, so `wcctl switch NAME` plays the user for an app too.
/// Served by the host of each activation bound to a watch.
struct SessionWatchOperations {
    let session: WCSession
    /// The app's configuration, not bound to a watch.
    let configuration: WCSessionConfiguration
    /// The watch this activation is bound to.
    let bound: String
    let channels: AppChannels

    func register(on router: inout ControlRouter) {
        router.register(WatchesOperation.self) { _, _ in await list() }
        router.register(SwitchWatchOperation.self) { request, _ throws(WCFailure) in try await switchTo(request.watch) }
        router.register(PairWatchOperation.self) { request, _ throws(WCFailure) in
            try await run { () async throws(WCError) in try await session.pairWatch(request.watch) }
            return .object(["watch": .string(request.watch), "paired": .bool(true)])
        }
        router.register(UnpairWatchOperation.self) { request, _ throws(WCFailure) in try await unpair(request.watch) }
    }

    private func list() async -> JSONValue {
        guard let machine = session.state.withLock({ $0.watches }) else { return .object([:]) }
        return await WatchesList.json(
            machine: machine, bound: bound, channels: channels, configuration: configuration.hostConfiguration, logger: session.logger)
    }

    private func switchTo(_ name: String) async throws(WCFailure) -> JSONValue {
        let from = session.activeWatch
        try await run { () async throws(WCError) in try await session.switchWatch(to: name) }
        var result: [String: JSONValue] = ["active": .string(name), "switching": .bool(from != name)]
        if from != name { result["from"] = from.map(JSONValue.string) ?? .null }
        return .object(result)
    }

    /// The active watch (or the one this activation is bound to) is refused: its host serves this very
    /// request, and unpairing it would close that host under the request.
    private func unpair(_ name: String) async throws(WCFailure) -> JSONValue {
        if name == bound || name == session.activeWatch {
            throw WCFailure(.invalidParameter, "watch '\(name)' is the active watch: switch to another one first")
        }
        var dropped = QueuedCounts()
        try await run { () async throws(WCError) in dropped = try await session.unpairWatch(name) }
        return .object(["watch": .string(name), "paired": .bool(false), "dropped": WatchesList.json(dropped)])
    }

    /// Runs `body`, its `WCError` as the control socket's failure.
    private func run(_ body: () async throws(WCError) -> Void) async throws(WCFailure) {
        do {
            try await body()
        } catch {
            throw WCFailure(WCErrorCode(rawValue: error.code.rawValue) ?? .genericError, error.message)
        }
    }
}
