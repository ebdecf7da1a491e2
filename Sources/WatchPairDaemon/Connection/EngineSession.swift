import Foundation
import Synchronization
import WatchConnection
import WatchPairCore
import WatchPairHost
import WatchPairWire

/// The daemon's host (its ``AppChannels``) as the `WCSessionProviding` its `WatchConnection` runs on
/// (the daemons' engine adapter), so `wcctl request`/`serve` go through the same layer as a
/// Swift app.
///
/// - State (`activationState`, `isReachable`, `isCounterpartAppInstalled`, `isCounterpartDeviceOn`) is a
///   cache that `run()` refreshes on every engine state change and reports as `stateChanged`; a message
///   that finds the peer not reachable refreshes it before its error handler runs, so the layer reads
///   then whether anything listens for the peer (`EngineStatus.peerListening`: device off or not).
/// - Outgoing messages are sent by child tasks of `run()` (each ends with its reply or error handler;
///   cancelled, they end with an error), so none outlives the adapter.
/// - Outgoing userInfo and context updates are accepted at once (the protocol is synchronous) and
///   handed to the engine in call order by `run()`; a refusal there ends the layer's request by its
///   timeout, as the WCSession adapter's rarer refusals do.
/// - Incoming messages with the layer's key arrive from ``MessageRouter`` (`message(_:)`); incoming
///   userInfo and contexts with the key are read from the store by `run()`. The layer's userInfo items
///   arrive in a queue of their own (``LayerInbox``, routed on arrival) and are acknowledged there once
///   the layer has handled them (``setHandled(_:)``: recorded, held or running, on disk), so a kill -9 in
///   between cannot lose one; exactly-once execution after a restart rests on the layer's recorded
///   responses. The app's queue is a `receive` client's alone.
final class EngineSession: WCSessionProviding {
    private struct State {
        var receiver: (@Sendable (SessionEvent) -> Void)?
        /// Returns once the layer has handled what it was given (nil: acknowledge at once).
        var handled: (@Sendable () async -> Void)?
        var activated = false
        var reachable = false
        var installed = false
        var listening = false
    }

    /// A background hand-off waiting for `run()`.
    private enum Transfer {
        case userInfo(PlistDictionary)
        case context(PlistDictionary)
    }

    /// A live message waiting for `run()` to send it.
    private struct OutgoingMessage {
        var body: MessageBody
        var replyHandler: (@Sendable ([String: String]) -> Void)?
        var errorHandler: @Sendable (any Error) -> Void
    }

    private let state = Mutex(State())
    private let channels: AppChannels
    private let transfers: AsyncStream<Transfer>.Continuation
    private let pendingTransfers: AsyncStream<Transfer>
    private let messages: AsyncStream<OutgoingMessage>.Continuation
    private let pendingMessages: AsyncStream<OutgoingMessage>

    /// An adapter of the host's `channels`.
    init(channels: AppChannels) {
        self.channels = channels
        // Bound: the layer hands on at most its queue's and its in-flight requests' worth at once;
        // 10,000 waiting hand-offs means the engine is stuck, and the newest are dropped (their
        // requests end by their timeout).
        (pendingTransfers, transfers) = AsyncStream.makeStream(of: Transfer.self, bufferingPolicy: .bufferingOldest(10_000))
        // Bound: as many as the layer has requests in flight; past 10,000 a message fails at once.
        (pendingMessages, messages) = AsyncStream.makeStream(of: OutgoingMessage.self, bufferingPolicy: .bufferingOldest(10_000))
    }

    /// Makes `handled` what the inbox waits for between handing the layer its userInfo items and
    /// acknowledging them.
    func setHandled(_ handled: @escaping @Sendable () async -> Void) {
        state.withLock { $0.handled = handled }
    }

    var activationState: SessionActivationState { state.withLock { $0.activated } ? .activated : .notActivated }
    var isReachable: Bool { state.withLock { $0.reachable } }
    var isCounterpartAppInstalled: Bool { state.withLock { $0.installed } }
    /// Whether anything listens on the peer's link socket (or the link is up): false while its device is off.
    var isCounterpartDeviceOn: Bool? { state.withLock { $0.listening } }

    func activate(reportingTo receiver: @escaping @Sendable (SessionEvent) -> Void) {
        let activated = state.withLock { state in
            state.receiver = receiver
            return state.activated
        }
        // The engine activates itself; a (re-)activation reports where it stands.
        receiver(.activationCompleted(activated ? .activated : .notActivated, error: nil))
    }

    func sendMessage(
        _ message: [String: String],
        replyHandler: (@Sendable ([String: String]) -> Void)?,
        errorHandler: @escaping @Sendable (any Error) -> Void
    ) {
        let outgoing = OutgoingMessage(
            body: .dictionary(message.mapValues(PlistValue.string)), replyHandler: replyHandler, errorHandler: errorHandler)
        if case .dropped = messages.yield(outgoing) {
            errorHandler(SessionFailure(code: .deliveryFailed, message: "too many messages wait to be sent"))
        }
    }

    /// Sends one live message; calls its reply or error handler.
    private func send(_ message: OutgoingMessage) async {
        do throws(WCFailure) {
            let reply = try await channels.sendMessage(message.body, wantsReply: message.replyHandler != nil)
            if let replyHandler = message.replyHandler {
                guard case .dictionary(let dictionary)? = reply else {
                    message.errorHandler(SessionFailure(code: .messageReplyFailed, message: "the reply is not a dictionary"))
                    return
                }
                replyHandler(Self.strings(dictionary))
            }
        } catch {
            // The layer reads `isCounterpartDeviceOn` when it counts this failure: what the engine's
            // probe saw just now, not what the cache held.
            if error.code == .notReachable { follow(await channels.status()) }
            message.errorHandler(SessionFailure(code: error.code, message: error.message))
        }
    }

    /// Checks the payload against the engine's limit now (7009 reaches the layer at once, not as a
    /// timeout), then hands it on.
    func transferUserInfo(_ userInfo: [String: String]) throws {
        let payload = userInfo.mapValues(PlistValue.string)
        do throws(WCFailure) { try channels.limits.checkUserInfo(payload) } catch { throw SessionFailure(code: error.code, message: error.message) }
        try hand(.userInfo(payload))
    }

    /// Checks and hands on, as `transferUserInfo` does.
    func updateApplicationContext(_ applicationContext: [String: String]) throws {
        let payload = applicationContext.mapValues(PlistValue.string)
        do throws(WCFailure) { try channels.limits.checkContext(payload) } catch { throw SessionFailure(code: error.code, message: error.message) }
        try hand(.context(payload))
    }

    private func hand(_ transfer: Transfer) throws {
        guard activationState == .activated else { throw SessionFailure(code: .sessionNotActivated, message: "the engine is not serving yet") }
        transfers.yield(transfer)
    }

    /// A live message from ``MessageRouter`` that carries the layer's key: handed to the layer, which
    /// answers through the returned value (nil: no reply wanted). Waits at most `answerTimeout`.
    func message(_ dictionary: PlistDictionary, wantsReply: Bool, answerTimeout: Duration, clock: any Clock<Duration>) async -> Result<MessageBody?, WCFailure> {
        guard let receiver = state.withLock({ $0.receiver }) else {
            return .failure(WCFailure(.deliveryFailed, "the app's connection is not running"))
        }
        guard wantsReply else {
            receiver(.message(Self.strings(dictionary), reply: nil))
            return .success(nil)
        }
        let slot = OnceValue<Result<MessageBody?, WCFailure>>()
        receiver(.message(Self.strings(dictionary), reply: { reply in
            _ = slot.complete(.success(.dictionary(reply.mapValues(PlistValue.string))))
        }))
        return await slot.value(
            within: answerTimeout, on: clock,
            late: .failure(WCFailure(.messageReplyTimedOut, "the app's connection did not answer within \(answerTimeout)")),
            stopping: .failure(WCFailure(.deliveryFailed, "the daemon is stopping")))
    }

    /// Serves the adapter until cancelled: follows the engine's state, sends messages, hands
    /// transfers on in order, and passes received layer items to the layer.
    func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.followState() }
            group.addTask { await self.handOn() }
            group.addTask { await self.followInbox() }
            // Ends when cancelled; the group then cancels the messages still being sent.
            for await message in pendingMessages {
                group.addTask { await self.send(message) }
            }
        }
    }

    private func followState() async {
        while !Task.isCancelled {
            let seen = (channels.stateSignal.generation, channels.activationSignal.generation)
            follow(await channels.status())
            await Waiting.any([(channels.stateSignal, seen.0), (channels.activationSignal, seen.1)])
        }
    }

    /// Caches what the layer reads of `status`; reports `stateChanged` when the layer's status moved.
    private func follow(_ status: EngineStatus) {
        let (changed, receiver) = state.withLock { state in
            let changed = (state.activated, state.reachable, state.installed) != (status.activated, status.reachable, status.peerInstalled)
            (state.activated, state.reachable, state.installed) = (status.activated, status.reachable, status.peerInstalled)
            // Read on demand, when a request fails: a change alone is not worth an event.
            state.listening = status.peerListening
            return (changed, state.receiver)
        }
        if changed { receiver?(.stateChanged) }
    }

    private func handOn() async {
        for await transfer in pendingTransfers {
            do throws(WCFailure) {
                switch transfer {
                case .userInfo(let payload): _ = try await channels.transferUserInfo(payload)
                case .context(let payload): _ = try await channels.updateApplicationContext(payload)
                }
            } catch {
                // Nothing to report to: the layer's request ends by its timeout.
                continue
            }
        }
    }

    /// Reads the layer's inbox queue (``LayerInbox``) and the received context after each `appSignal`;
    /// hands the layer's items on and, once the layer has handled them, acknowledges them on its queue.
    ///
    /// Only what is new is read: the queue after the last item handed on when received userInfo changed,
    /// and the received context only when the engine's version moved.
    private func followInbox() async {
        var cursor: UInt64 = 0
        var contextVersion: UInt64 = 0
        // What the last look read; nil after a failed read, so the next change of any kind reads it all.
        var looked: AppChanges.Marks?
        while !Task.isCancelled {
            let marks = channels.appChanges.marks
            let seen = marks.generation
            guard let receiver = state.withLock({ $0.receiver }) else {
                await channels.appSignal.wait(after: seen)
                continue
            }
            var failed = false
            if marks.moved(.userInfo, since: looked) {
                do throws(WCFailure) {
                    var page: [InboxTransfer]
                    repeat {
                        // Continues after what was looked at, the app's items included: they are not the
                        // layer's to look at again.
                        let scan = try await channels.pendingUserInfoScan(after: cursor, limit: 256, queue: LayerInbox.queue)
                        page = scan.transfers
                        for transfer in page {
                            if let envelope = Self.envelope(transfer) { receiver(.userInfo([WireEnvelope.key: envelope])) }
                        }
                        if let last = page.last {
                            await state.withLock({ $0.handled })?()
                            // Handled (recorded, held or running, on disk): a kill -9 from here loses nothing.
                            try await channels.acknowledgeUserInfo(upTo: last.deliveryId, queue: LayerInbox.queue)
                        }
                        cursor = scan.through
                    } while page.count == 256
                } catch {
                    failed = true
                }
            }
            if marks.moved(.context, since: looked), await channels.receivedContextVersion != contextVersion {
                if let context = try? await channels.receivedContext() {
                    contextVersion = context.version
                    if case .string(let envelope)? = context.payload[WireEnvelope.key] {
                        receiver(.applicationContext([WireEnvelope.key: envelope]))
                    }
                } else {
                    failed = true
                }
            }
            looked = failed ? nil : marks
            await channels.appSignal.wait(after: seen)
        }
    }

    /// The layer's envelope in a received transfer, if it carries one.
    private static func envelope(_ transfer: InboxTransfer) -> String? {
        guard case .string(let envelope)? = transfer.payload[WireEnvelope.key] else { return nil }
        return envelope
    }

    /// The string values of a received dictionary (the layer's wire form is a JSON string).
    static func strings(_ dictionary: PlistDictionary) -> [String: String] {
        dictionary.compactMapValues { value in
            if case .string(let text) = value { return text }
            return nil
        }
    }
}

/// A failure of the engine as the layer reads it: `NSError`-bridged in `WCErrorDomain`, so
/// `WatchConnectionError(sessionError:)` keeps its code.
struct SessionFailure: Error, CustomNSError, CustomStringConvertible {
    /// The `WCError` code.
    let code: WCErrorCode
    /// What failed.
    let message: String

    static var errorDomain: String { "WCErrorDomain" }
    var errorCode: Int { code.rawValue }
    var errorUserInfo: [String: Any] { ["NSLocalizedDescription": message] }
    var description: String { "\(code.rawValue): \(message)" }
}
