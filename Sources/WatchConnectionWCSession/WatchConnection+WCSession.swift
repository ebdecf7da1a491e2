import Logging
import WatchConnection
import WatchConnectivity

extension WatchConnection {
    /// A connection over WatchPair's `WCSession` (usually `WCSession.default`), as
    /// WatchConnectivitySwift's `WatchConnection(session:)` is over Apple's: wraps it in a `WCSessionAdapter`.
    ///
    /// The connection becomes the session's delegate; see `WCSessionAdapter`.
    public convenience init(
        session: WCSession,
        configuration: WatchConnectionConfiguration = WatchConnectionConfiguration(),
        clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "WatchConnection")
    ) {
        self.init(session: WCSessionAdapter(session), configuration: configuration, clock: clock, logger: logger)
    }
}
