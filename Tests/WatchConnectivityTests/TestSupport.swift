import Foundation
import Logging
import Synchronization
import Testing
import WatchPairControlClient
import WatchPairCore
import WatchPairTesting
import WatchPairWire

@testable import WatchConnectivity
import WatchConnectivityTesting
@testable import WatchPairTransport

/// A short temporary directory (Unix socket paths must fit 108 bytes), removed by `remove()`.
struct TemporaryDirectory: Sendable {
    let path: String

    init() throws {
        var template = Array("/tmp/wc-XXXXXX".utf8CString)
        guard let result = mkdtemp(&template) else { throw POSIXError(.EIO) }
        path = String(cString: result)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Configurations for a phone and a watch app linked through sockets in this directory.
    ///
    /// These sessions run on the real clock, so no timer fires unless a test sets it: no keep-alive, and
    /// reply and handshake timeouts longer than any test. With the defaults (10 s, 5 s, a ping every 2 s) a
    /// loaded machine could time a call out, or drop a link, in a test about something else.
    func configuration(_ role: Role, replyTimeout: Duration = Self.realClockTimeout) -> WCSessionConfiguration {
        var configuration = WCSessionConfiguration(role: role, runDirectory: path, stateRoot: path)
        configuration.durability = .process
        configuration.replyTimeout = replyTimeout
        configuration.handshakeTimeout = Self.realClockTimeout
        configuration.keepAlive = KeepAlivePolicy(interval: nil)
        configuration.launch = .foreground
        return configuration
    }

    /// Longer than any test.
    static let realClockTimeout = Duration.seconds(3_600)
}

/// What a delegate was told, in order, as comparable values.
enum DelegateEvent: Sendable, Hashable, CustomStringConvertible {
    case activated(WCSessionActivationState, errorCode: Int?)
    case inactive
    case deactivated
    case watchStateChanged(installed: Bool)
    case companionStateChanged(installed: Bool)
    case reachability(Bool)
    case message(PlistDictionary)
    case messageWithReply(PlistDictionary)
    case data(Data)
    case dataWithReply(Data)
    case context(PlistDictionary)
    case userInfo(PlistDictionary)
    case finished(PlistDictionary, errorCode: Int?)
    /// `didReceive file`: its name, metadata and bytes, read while the callback ran.
    case file(name: String, metadata: PlistDictionary?, bytes: Data)
    /// `didFinish fileTransfer`: the file's name and the error's code.
    case fileFinished(name: String, errorCode: Int?)

    /// Whether this reports a state change rather than content.
    var isStateChange: Bool {
        switch self {
        case .watchStateChanged, .companionStateChanged, .reachability: true
        default: false
        }
    }

    var description: String {
        switch self {
        case .activated(let state, let code): "activated(\(state), \(code.map(String.init) ?? "nil"))"
        case .inactive: "inactive"
        case .deactivated: "deactivated"
        case .watchStateChanged(let installed): "watchStateChanged(\(installed))"
        case .companionStateChanged(let installed): "companionStateChanged(\(installed))"
        case .reachability(let reachable): "reachability(\(reachable))"
        case .message(let message): "message(\(PlistJSON.text(of: message)))"
        case .messageWithReply(let message): "messageWithReply(\(PlistJSON.text(of: message)))"
        case .data(let data): "data(\(data.count) bytes)"
        case .dataWithReply(let data): "dataWithReply(\(data.count) bytes)"
        case .context(let context): "context(\(PlistJSON.text(of: context)))"
        case .userInfo(let userInfo): "userInfo(\(PlistJSON.text(of: userInfo)))"
        case .finished(let userInfo, let code): "finished(\(PlistJSON.text(of: userInfo)), \(code.map(String.init) ?? "nil"))"
        case .file(let name, let metadata, let bytes): "file(\(name), \(metadata.map(PlistJSON.text(of:)) ?? "nil"), \(bytes.count) bytes)"
        case .fileFinished(let name, let code): "fileFinished(\(name), \(code.map(String.init) ?? "nil"))"
        }
    }
}

/// Converts a dictionary a delegate received back to plist values (they must be property lists).
func plist(_ dictionary: [String: Any]) -> PlistDictionary {
    (try? PropertyListBridge.plist(from: dictionary)) ?? ["<not a plist>": .bool(true)]
}

func errorCode(_ error: (any Error)?) -> Int? {
    error.map { ($0 as NSError).code }
}

/// Records callbacks as `DelegateEvent`s; tests read them in order with `next()` (the test kit's
/// `EventQueue`, as `SessionRecorder` does).
class EventRecorder: NSObject, @unchecked Sendable {
    private let queue = EventQueue<DelegateEvent>(limit: 10_000)
    /// Whether state changes (reachability, installed) are recorded.
    let recordsStateChanges: Bool
    /// Runs first in `activationDidCompleteWith`, on the delegate queue (tests block it to hold deliveries).
    let onActivation: (@Sendable () -> Void)?

    init(recordsStateChanges: Bool = true, onActivation: (@Sendable () -> Void)? = nil) {
        self.recordsStateChanges = recordsStateChanges
        self.onActivation = onActivation
    }

    func record(_ event: DelegateEvent) {
        if event.isStateChange, !recordsStateChanges { return }
        queue.append(event)
    }

    /// Events recorded and not yet read.
    var unread: [DelegateEvent] { queue.unread }

    /// The next event; fails the test after `timeout` (a safety net only).
    func next(timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation) async -> DelegateEvent? {
        let result = try? await withTimeout(timeout, "a delegate event") { try await self.queue.next() }
        if result == nil { Issue.record("no delegate event within \(timeout)", sourceLocation: sourceLocation) }
        return result
    }

    /// The next events, `count` of them.
    func next(_ count: Int) async -> [DelegateEvent] {
        var events: [DelegateEvent] = []
        for _ in 0..<count {
            guard let event = await next() else { break }
            events.append(event)
        }
        return events
    }

    /// Skips state changes until the next content event.
    func nextContent() async -> DelegateEvent? {
        while let event = await next() {
            if !event.isStateChange { return event }
        }
        return nil
    }
}

/// A delegate implementing every callback; replies to messages with `reply(message)` (nil: never replies).
final class FullDelegate: EventRecorder, WCSessionDelegate, @unchecked Sendable {
    let reply: @Sendable (PlistDictionary) -> PlistDictionary?

    init(
        recordsStateChanges: Bool = true,
        onActivation: (@Sendable () -> Void)? = nil,
        reply: @escaping @Sendable (PlistDictionary) -> PlistDictionary? = { ["echo": .dictionary($0)] }
    ) {
        self.reply = reply
        super.init(recordsStateChanges: recordsStateChanges, onActivation: onActivation)
    }

    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: (any Error)?) {
        onActivation?()
        record(.activated(activationState, errorCode: errorCode(error)))
    }
    func sessionDidBecomeInactive(_ session: WCSession) { record(.inactive) }
    func sessionDidDeactivate(_ session: WCSession) { record(.deactivated) }
    func sessionWatchStateDidChange(_ session: WCSession) { record(.watchStateChanged(installed: session.isWatchAppInstalled)) }
    func sessionCompanionAppInstalledDidChange(_ session: WCSession) {
        record(.companionStateChanged(installed: session.isCompanionAppInstalled))
    }
    func sessionReachabilityDidChange(_ session: WCSession) { record(.reachability(session.isReachable)) }
    func session(_ session: WCSession, didReceiveMessage message: [String: Any]) { record(.message(plist(message))) }
    func session(_ session: WCSession, didReceiveMessage message: [String: Any], replyHandler: @escaping ([String: Any]) -> Void) {
        let received = plist(message)
        record(.messageWithReply(received))
        if let answer = reply(received) { replyHandler(PropertyListBridge.object(from: answer)) }
    }
    func session(_ session: WCSession, didReceiveMessageData messageData: Data) { record(.data(messageData)) }
    func session(_ session: WCSession, didReceiveMessageData messageData: Data, replyHandler: @escaping (Data) -> Void) {
        record(.dataWithReply(messageData))
        replyHandler(Data(messageData.reversed()))
    }
    func session(_ session: WCSession, didReceiveApplicationContext applicationContext: [String: Any]) {
        record(.context(plist(applicationContext)))
    }
    func session(_ session: WCSession, didReceiveUserInfo userInfo: [String: Any]) { record(.userInfo(plist(userInfo))) }
    func session(_ session: WCSession, didFinish userInfoTransfer: WCSessionUserInfoTransfer, error: (any Error)?) {
        record(.finished(plist(userInfoTransfer.userInfo), errorCode: errorCode(error)))
    }
}

/// A delegate implementing only what Apple requires plus the durable channels: no message callbacks.
final class MinimalDelegate: EventRecorder, WCSessionDelegate, @unchecked Sendable {
    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: (any Error)?) {
        record(.activated(activationState, errorCode: errorCode(error)))
    }
    func session(_ session: WCSession, didReceiveUserInfo userInfo: [String: Any]) { record(.userInfo(plist(userInfo))) }
}

/// A one-time gate a test opens for code waiting on another thread.
final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func open() { semaphore.signal() }
    func wait() { semaphore.wait() }
}

/// Outcomes of a `sendMessage`, counted, so a test can check exactly one arrived.
final class SendOutcome: @unchecked Sendable {
    private let state = Mutex<(replies: [PlistDictionary], errors: [Int])>(([], []))
    private let done = AsyncSignal()

    var replies: [PlistDictionary] { state.withLock { $0.replies } }
    var errors: [Int] { state.withLock { $0.errors } }
    var count: Int { state.withLock { $0.replies.count + $0.errors.count } }

    func replyHandler() -> ([String: Any]) -> Void {
        { reply in
            self.state.withLock { $0.replies.append(plist(reply)) }
            self.done.fire()
        }
    }

    func errorHandler() -> (any Error) -> Void {
        { error in
            self.state.withLock { $0.errors.append((error as NSError).code) }
            self.done.fire()
        }
    }

    /// Waits until at least one outcome arrived (safety net: `timeout`).
    func wait(timeout: Duration = .seconds(60)) async {
        _ = try? await withTimeout(timeout, "an outcome") { try await self.done.first { self.count > 0 ? () : nil } }
    }
}

/// Waits until `condition` holds, re-checking whenever `signal` fires (safety net: `timeout`).
func waitUntil(
    _ signal: AsyncSignal, timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: @escaping @Sendable () async -> Bool
) async {
    let met: Void? = try? await withTimeout(timeout, "the condition") {
        try await signal.first { await condition() ? () : nil }
    }
    if met == nil { Issue.record("condition not met within \(timeout)", sourceLocation: sourceLocation) }
}

/// Starts a session with `delegate` and waits for its activation callback.
func activatedSession(
    _ configuration: WCSessionConfiguration, delegate: EventRecorder & WCSessionDelegate,
    overrides: SessionOverrides = SessionOverrides(), sourceLocation: SourceLocation = #_sourceLocation
) async -> WCSession {
    let session = testSession(configuration, overrides: overrides)
    session.delegate = delegate
    session.activate()
    let first = await delegate.next()
    #expect(first == .activated(.activated, errorCode: nil), sourceLocation: sourceLocation)
    return session
}

/// Sends one request line to a control socket and returns the first line back, as its compact JSON
/// (blocking, at most 60 s; the control client's `ControlClientConnection`).
func controlRequest(_ path: String, _ line: String) throws -> String {
    let connection = try ControlClientConnection.connect(to: path)
    try connection.write(Array((line + "\n").utf8))
    guard let response = try connection.read(until: ContinuousClock.now + .seconds(60)) else { throw POSIXError(.ETIMEDOUT) }
    return response.line
}

/// Session logs in tests: warnings and above, or everything with `WATCHPAIR_TEST_LOG=debug`.
let testLogger: Logger = {
    var logger = Logger(label: "WatchConnectivityTests")
    logger.logLevel = ProcessInfo.processInfo.environment["WATCHPAIR_TEST_LOG"] == "debug" ? .debug : .warning
    return logger
}()

/// A session for a test, logging through `testLogger` unless the overrides say otherwise.
func testSession(_ configuration: WCSessionConfiguration, overrides: SessionOverrides = SessionOverrides()) -> WCSession {
    var overrides = overrides
    if overrides.logger == nil {
        var logger = testLogger
        logger[metadataKey: "state"] = "\(configuration.stateDirectory)"
        overrides.logger = logger
    }
    return WCSession(configuration: configuration, overrides: overrides)
}
