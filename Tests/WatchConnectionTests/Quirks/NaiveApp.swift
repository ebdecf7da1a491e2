import Foundation
import WatchConnection
import WatchConnectionTesting

/// Code written from Apple's documentation alone, as the quirk tests' "naive" side: what it does is
/// right by the documented contract, and wrong on real devices.
enum NaiveApp {
    /// Sends `message` live when the session says the counterpart is reachable, otherwise by userInfo
    /// (Apple: "use isReachable to decide"). An error is logged and forgotten.
    static func sendChoosingByReachability(_ message: [String: String], on session: FlakySession) throws {
        if session.isReachable {
            session.sendMessage(message, replyHandler: nil, errorHandler: { _ in })
        } else {
            try session.transferUserInfo(message)
        }
    }

    /// Sends `message` live; an error means it may not have arrived, so it is sent once more. Each
    /// handler call counts as one completion of the operation.
    static func sendRetryingOnError(_ message: [String: String], on session: FlakySession, completions: Counter) {
        session.sendMessage(
            message,
            replyHandler: { _ in completions.increment() },
            errorHandler: { _ in
                completions.increment()
                session.sendMessage(message, replyHandler: { _ in }, errorHandler: { _ in })
            })
    }
}
