import Foundation
import Synchronization
import WatchConnection
import WatchConnectionTesting

/// What one app saw of its session, recorded as a naive app would handle it: messages are answered
/// (`{"answer": <their "n">}`), and everything that arrives is kept in order.
final class SessionRecorder: Sendable {
    enum Seen: Sendable, Hashable {
        case activated(Bool)
        case stateChanged
        case message([String: String])
        case userInfo([String: String])
        case context([String: String])
    }

    private let seen = Mutex<[Seen]>([])
    /// Held, so that a pair's peer (held weakly by its session) lives as long as what records it.
    let session: FlakySession

    /// Activates `session`, recording what it reports from now on.
    init(_ session: FlakySession) {
        self.session = session
        session.activate { [self] event in
            switch event {
            case .activationCompleted(let state, _): record(.activated(state == .activated))
            case .deactivated, .stateChanged: record(.stateChanged)
            case .message(let message, let reply):
                record(.message(message))
                reply?(["answer": message["n"] ?? ""])
            case .userInfo(let userInfo): record(.userInfo(userInfo))
            case .applicationContext(let context): record(.context(context))
            }
        }
    }

    private func record(_ item: Seen) { seen.withLock { $0.append(item) } }

    var all: [Seen] { seen.withLock { $0 } }
    var messages: [[String: String]] { all.compactMap { if case .message(let m) = $0 { m } else { nil } } }
    var userInfos: [[String: String]] { all.compactMap { if case .userInfo(let u) = $0 { u } else { nil } } }
    var contexts: [[String: String]] { all.compactMap { if case .context(let c) = $0 { c } else { nil } } }
}

/// The outcomes of live messages sent with both handlers: every reply and every error, in order.
final class Outcomes: Sendable {
    enum Outcome: Sendable, Hashable {
        case reply([String: String])
        case error(Int)
    }

    private let list = Mutex<[Outcome]>([])

    var all: [Outcome] { list.withLock { $0 } }
    var errorCodes: [Int] { all.compactMap { if case .error(let code) = $0 { code } else { nil } } }

    /// Sends `message` on `session`, recording its outcomes here.
    func send(_ message: [String: String], on session: FlakySession) {
        session.sendMessage(
            message,
            replyHandler: { reply in self.list.withLock { $0.append(.reply(reply)) } },
            errorHandler: { error in self.list.withLock { $0.append(.error((error as NSError).code)) } })
    }
}
