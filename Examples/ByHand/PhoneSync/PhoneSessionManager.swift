import ExampleConsole
import Foundation
import WatchConnectivity

/// The iPhone side of a shopping-list app, written the way Apple's samples and most tutorials write it:
/// one object owns `WCSession.default`, is its delegate, keeps the app's state, and pushes that state to
/// the watch.
///
/// - The list goes to the watch as the application context (the watch always ends with the newest list).
/// - The watch asks for a snapshot with a message when it launches (the launch-time handshake), and may
///   add items with messages; both are answered through the reply handler.
/// - Items the watch ticks off arrive with `transferUserInfo`, which survives either app not running.
///
/// State lives on the main queue; delegate callbacks arrive on a background queue and hop to it.
final class PhoneSessionManager: NSObject, WCSessionDelegate, @unchecked Sendable {
    static let shared = PhoneSessionManager()

    private let session: WCSession? = WCSession.isSupported() ? WCSession.default : nil

    // The app's state, main queue only.
    private var items: [String] = ["milk", "eggs"]
    private var completed: Set<String> = []
    private var revision = 1

    func start() {
        guard let session else {
            Console.report("unsupported", ["reason": "WatchConnectivity is not configured (set WATCHPAIR_ROLE=phone)"])
            return
        }
        session.delegate = self
        session.activate()
    }

    // MARK: WCSessionDelegate

    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: Error?) {
        if let error {
            Console.report("activation-failed", ["error": error.localizedDescription])
            return
        }
        Console.report("activated", ["state": "\(activationState)", "watchAppInstalled": session.isWatchAppInstalled])
        DispatchQueue.main.async { self.publish() }
    }

    func sessionDidBecomeInactive(_ session: WCSession) {
        Console.report("inactive")
    }

    func sessionDidDeactivate(_ session: WCSession) {
        Console.report("deactivated")
        // Apple's advice on iOS: activate again, to talk to the newly paired watch.
        session.activate()
    }

    func sessionWatchStateDidChange(_ session: WCSession) {
        Console.report("watch-state", ["paired": session.isPaired, "watchAppInstalled": session.isWatchAppInstalled])
    }

    func sessionReachabilityDidChange(_ session: WCSession) {
        Console.report("reachability", ["reachable": session.isReachable])
    }

    func session(_ session: WCSession, didReceiveMessage message: [String: Any], replyHandler: @escaping ([String: Any]) -> Void) {
        Console.report("message", message)
        // Read what the watch asks for here; only plain values cross to the main queue.
        let request = message["request"] as? String
        let itemToAdd = message["add"] as? String
        let reply: [String: Any] = DispatchQueue.main.sync {
            if request == "snapshot" {
                return snapshot
            }
            if let item = itemToAdd {
                add(item)
                return ["ok": true, "revision": revision]
            }
            return ["error": "unknown request"]
        }
        replyHandler(reply)
    }

    func session(_ session: WCSession, didReceiveMessage message: [String: Any]) {
        Console.report("message", message)
    }

    func session(_ session: WCSession, didReceiveUserInfo userInfo: [String: Any] = [:]) {
        Console.report("userInfo", userInfo)
        guard let item = userInfo["completed"] as? String else { return }
        DispatchQueue.main.async {
            self.completed.insert(item)
            self.revision += 1
            self.publish()
        }
    }

    func session(_ session: WCSession, didFinish userInfoTransfer: WCSessionUserInfoTransfer, error: Error?) {
        if let error {
            Console.report("transfer-failed", ["error": error.localizedDescription, "userInfo": userInfoTransfer.userInfo])
        } else {
            Console.report("finished", userInfoTransfer.userInfo)
        }
    }

    // MARK: The app's own actions ("UI")

    /// Adds an item and tells the watch.
    func add(_ item: String) {
        dispatchPrecondition(condition: .onQueue(.main))
        guard !items.contains(item) else { return }
        items.append(item)
        revision += 1
        publish()
    }

    /// Sends a notice the watch must get even if it is not running now.
    func notify(_ text: String) {
        session?.transferUserInfo(["notice": text, "sentAt": Date()])
    }

    /// Pings the watch app if it is running.
    func ping() {
        guard let session, session.isReachable else {
            Console.report("ping-skipped", ["reason": "watch app not reachable"])
            return
        }
        session.sendMessage(["ping": Date()], replyHandler: { reply in
            Console.report("reply", reply)
        }, errorHandler: { error in
            Console.report("ping-failed", ["error": error.localizedDescription, "code": (error as NSError).code])
        })
    }

    private var snapshot: [String: Any] {
        ["items": items, "completed": completed.sorted(), "revision": revision]
    }

    /// Makes the current list the application context.
    private func publish() {
        guard let session, session.activationState == .activated else { return }
        do {
            try session.updateApplicationContext(snapshot)
            Console.report("published", ["revision": revision])
        } catch {
            Console.report("publish-failed", ["error": error.localizedDescription])
        }
    }
}
