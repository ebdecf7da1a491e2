import Foundation
import Synchronization

/// The session's delegate, held weakly as on Apple's platforms, and the one serial queue every delegate
/// callback and send handler runs on (never the main thread).
///
/// Also tells a message callback the app implements from a default one (``WCSessionDelegate``'s
/// defaults call ``notImplemented()``), so a message the app does not handle gets 7014.
final class SessionCallbacks: @unchecked Sendable {
    /// The queue every delegate callback and send handler runs on.
    let queue = DispatchQueue(label: "WatchConnectivity.WCSession.delegate")
    /// Only read or written under `lock` (hence `@unchecked Sendable`).
    private weak var weakDelegate: (any WCSessionDelegate)?
    private let lock = NSLock()
    /// Set by a default (not implemented) message callback while the session calls it.
    private let missingCallback = Mutex(false)

    var delegate: (any WCSessionDelegate)? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return weakDelegate
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            weakDelegate = newValue
        }
    }

    /// Calls a message callback on the delegate; false when there is no delegate or the callback is a
    /// default implementation (the app does not handle that kind of message). Delegate queue only.
    func callMessageCallback(_ body: (any WCSessionDelegate) -> Void) -> Bool {
        guard let delegate else { return false }
        missingCallback.withLock { $0 = false }
        body(delegate)
        return !missingCallback.withLock { $0 }
    }

    /// Called by the default implementations of the message callbacks.
    func notImplemented() {
        missingCallback.withLock { $0 = true }
    }
}
