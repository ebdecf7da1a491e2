import WatchPairCore
import WatchPairWire

/// The control socket of an app built on `WCSession`: proof of life for the counterpart (its presence
/// probe connects here), and `status` for `wcctl status`.
///
/// Every other operation gets 7008 (`invalidParameter`): the app's own code, not a control client, is
/// the app's logic.
public struct StatusControlHandler: ControlRequestHandler {
    let context: HostContext

    /// A handler answering `status` from `context`.
    public init(context: HostContext) {
        self.context = context
    }

    /// Answers `status`; any other operation gets 7008.
    public func perform(_ request: ControlRequest, on connection: ControlConnection) async {
        guard request.op == .status else {
            let reason = "'\(request.op.rawValue)' is not served: this app's WCSession delegate is the app's logic; only status is answered"
            await connection.writer.send(.failure(request.id, WCFailure(.invalidParameter, reason)))
            return
        }
        await connection.writer.send(.success(request.id, await context.statusJSON()))
    }

    /// Nothing to release: this handler keeps no per-connection state.
    public func connectionStopped(id: UInt64) async {}
}
