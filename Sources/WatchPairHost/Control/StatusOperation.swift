import WatchPairWire

/// `status`: the session's state (activation, reachability, link, queues, context versions), `pid` and
/// `controlClients` (docs/ControlProtocol.md). Served by every app's control socket.
public struct StatusOperation: FieldlessControlOperation {
    public static let name = "status"

    public init() {}

    /// Registers `status` answered from `context`.
    public static func register(on router: inout ControlRouter, context: HostContext) {
        router.register(Self.self) { _, _ in await context.statusJSON() }
    }
}

extension ControlRouter {
    /// The control socket of an app built on `WCSession`: proof of life for the counterpart (its presence
    /// probe connects here), and `status` for `wcctl status`. Every other operation gets 7008: the app's
    /// own code, not a control client, is the app's logic.
    public static func statusOnly(context: HostContext) -> ControlRouter {
        var router = ControlRouter()
        StatusOperation.register(on: &router, context: context)
        router.unregistered = { op in
            WCFailure(.invalidParameter, "'\(op)' is not served: this app's WCSession delegate is the app's logic; only status is answered")
        }
        return router
    }
}
