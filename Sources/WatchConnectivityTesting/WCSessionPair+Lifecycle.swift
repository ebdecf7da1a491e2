import WatchConnectivity
import WatchPairWire

/// One side of the pair stopped, or stopped and started again, within a test; its store stays.
extension WCSessionPair {
    /// Stops `role`'s app as if it exited (the app not running), keeping its store and its delegate.
    ///
    /// No callback is made, nothing undelivered is acknowledged, its link closes. Returns once it has
    /// stopped and its counterpart sees it unreachable: messages to it fail with 7007 (`notReachable`);
    /// userInfo, contexts and files wait in the counterpart's store. Start it again with `activate()` on
    /// its session: its delegate hears `activationDidCompleteWith` again, then what waited is delivered.
    /// Both modes.
    ///
    /// The stop is abrupt, as when an app exits: a callback its delegate was handed and had not yet
    /// acknowledged (the session does so right after the callback returns) is handed again at the next
    /// activation.
    public func stop(_ role: Role) async {
        await session(role).shutdown()
        await session(role.peer).waitForReachability(false)
    }

    /// Stops `role`'s app (``stop(_:)``) and starts it again, as an app quit and relaunched: same store,
    /// same delegate, same `WCSession` object. Returns once the new activation has begun; its delegate
    /// then hears `activationDidCompleteWith` (await that, or ``waitUntilReachable(_:)``, before sending).
    public func restart(_ role: Role) async {
        await stop(role)
        session(role).activate()
    }
}
