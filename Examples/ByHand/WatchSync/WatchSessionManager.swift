import ExampleConsole
import Foundation
import WatchConnectivity

/// The Apple Watch side of the shopping-list app, in the usual shape: a delegate object that owns
/// `WCSession.default` and keeps the list the phone sends.
///
/// - At launch it asks the phone for a snapshot with a message (the launch-time handshake); when the
///   phone cannot answer, it falls back to the last received application context.
/// - The phone's list arrives as the application context; the watch acknowledges the revision it has
///   seen in its own context.
/// - Ticking an item off is a `transferUserInfo`, so it reaches the phone even if the phone app is not
///   running; adding one is a message with a reply.
/// - It answers the phone's pings.
final class WatchSessionManager: NSObject, WCSessionDelegate, @unchecked Sendable {
    static let shared = WatchSessionManager()

    // The app's state, main queue only.
    private var items: [String] = []
    private var completed: [String] = []
    private var revision = 0

    func start() {
        guard WCSession.isSupported() else {
            Console.report("unsupported", ["reason": "WCSession is not supported on this device"])  // as on an iPad; WatchPair always supports it
            return
        }
        WCSession.default.delegate = self
        WCSession.default.activate()
    }

    // MARK: WCSessionDelegate

    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: Error?) {
        if let error {
            Console.report("activation-failed", ["error": error.localizedDescription])
            return
        }
        Console.report("activated", ["state": "\(activationState)", "companionAppInstalled": session.isCompanionAppInstalled])
        requestSnapshot()
    }

    func sessionReachabilityDidChange(_ session: WCSession) {
        Console.report("reachability", ["reachable": session.isReachable])
    }

    func sessionCompanionAppInstalledDidChange(_ session: WCSession) {
        Console.report("companion-state", ["companionAppInstalled": session.isCompanionAppInstalled])
    }

    func session(_ session: WCSession, didReceiveApplicationContext applicationContext: [String: Any]) {
        Console.report("context", applicationContext)
        let list = ShoppingList(applicationContext)
        DispatchQueue.main.async { self.apply(list) }
    }

    func session(_ session: WCSession, didReceiveUserInfo userInfo: [String: Any] = [:]) {
        Console.report("userInfo", userInfo)
    }

    func session(_ session: WCSession, didReceiveMessage message: [String: Any], replyHandler: @escaping ([String: Any]) -> Void) {
        Console.report("message", message)
        replyHandler(["pong": true, "revision": DispatchQueue.main.sync { revision }])
    }

    func session(_ session: WCSession, didReceiveMessage message: [String: Any]) {
        Console.report("message", message)
    }

    func session(_ session: WCSession, didFinish userInfoTransfer: WCSessionUserInfoTransfer, error: Error?) {
        if let error {
            Console.report("transfer-failed", ["error": error.localizedDescription, "userInfo": userInfoTransfer.userInfo])
        } else {
            Console.report("finished", userInfoTransfer.userInfo)
        }
    }

    // MARK: The app's own actions ("UI")

    /// Ticks an item off; the phone hears of it even if it is not running now.
    func complete(_ item: String) {
        WCSession.default.transferUserInfo(["completed": item, "at": Date()])
    }

    /// Asks the phone to add an item; the phone answers with its new revision.
    func add(_ item: String) {
        WCSession.default.sendMessage(["add": item], replyHandler: { reply in
            Console.report("reply", reply)
        }, errorHandler: { error in
            Console.report("add-failed", ["error": error.localizedDescription, "code": (error as NSError).code])
        })
    }

    /// The launch-time handshake: the phone's current list, or the last one received.
    private func requestSnapshot() {
        let session = WCSession.default
        session.sendMessage(["request": "snapshot"], replyHandler: { reply in
            Console.report("snapshot", reply)
            let list = ShoppingList(reply)
            DispatchQueue.main.async { self.apply(list) }
        }, errorHandler: { error in
            Console.report("snapshot-failed", ["error": error.localizedDescription, "code": (error as NSError).code])
            let last = ShoppingList(session.receivedApplicationContext)
            DispatchQueue.main.async { self.apply(last) }
        })
    }

    private func apply(_ list: ShoppingList?) {
        dispatchPrecondition(condition: .onQueue(.main))
        guard let list, list.revision >= revision else { return }
        items = list.items
        completed = list.completed
        revision = list.revision
        Console.report("list", ["items": items, "completed": completed, "revision": revision])
        try? WCSession.default.updateApplicationContext(["seenRevision": revision])
    }
}

/// The phone's list as it travels in messages and contexts; parsed on the delegate queue, so only plain
/// values cross to the main queue.
struct ShoppingList: Sendable {
    var items: [String]
    var completed: [String]
    var revision: Int

    init?(_ dictionary: [String: Any]) {
        guard let revision = dictionary["revision"] as? Int else { return nil }
        self.items = dictionary["items"] as? [String] ?? []
        self.completed = dictionary["completed"] as? [String] ?? []
        self.revision = revision
    }
}
