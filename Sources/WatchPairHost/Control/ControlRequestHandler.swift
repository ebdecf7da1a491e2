import WatchPairWire

/// What the host's control server runs for each request: the daemons' control operations
/// (`WatchPairDaemon`), or ``StatusControlHandler`` for an app whose own code is its logic.
public protocol ControlRequestHandler: Sendable {
    /// Runs `request` and writes its response (and, for streams, its events) to `connection`.
    /// Never throws: every failure is a response with its `WCError` code.
    func perform(_ request: ControlRequest, on connection: ControlConnection) async

    /// Called once per connection when it has stopped reading, before the requests still running finish.
    func connectionStopped(id: UInt64) async
}
