import Foundation
import Synchronization
import WatchPairCore
import WatchPairHost
import WatchPairWire

/// One outgoing live message: the engine's call and the session's own deadline, of which the first to
/// answer is reported, once, on the delegate queue.
///
/// The engine reports one outcome per message within its reply timeout (plus a handshake when it must
/// connect first). As a safety net the session also answers 7012 itself if the engine has not answered
/// `safetyMargin` after that; whichever comes first is reported, the other dropped.
struct MessageSend: Sendable {
    /// Added to the engine's reply and handshake timeouts before the session answers a message itself.
    static let safetyMargin: Duration = .seconds(2)

    let runtime: SessionRuntime
    /// Where `completion` runs (the session's delegate queue).
    let delegateQueue: DispatchQueue

    /// Sends through the engine on the host's executor and calls `completion` exactly once on the delegate queue.
    func start(_ body: MessageBody, wantsReply: Bool, completion: @escaping @Sendable (Result<MessageBody?, WCError>) -> Void) {
        let engineConfiguration = runtime.engine.configuration
        let deadline = engineConfiguration.replyTimeout + engineConfiguration.handshakeTimeout + Self.safetyMargin
        let answered = Mutex(false)
        let delegateQueue = self.delegateQueue
        let report: @Sendable (Result<MessageBody?, WCError>) -> Bool = { result in
            guard answered.withLock({ done in defer { done = true }; return !done }) else { return false }
            delegateQueue.async { completion(result) }
            return true
        }
        let engine = runtime.engine
        let engineCall = EngineExecutor.shared.spawn {
            do throws(WCFailure) {
                _ = report(.success(try await engine.sendMessage(body, wantsReply: wantsReply)))
            } catch {
                _ = report(.failure(WCError(error)))
            }
        }
        let clock = runtime.clock
        let logger = runtime.logger
        EngineExecutor.shared.spawn {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await engineCall.value }
                group.addTask {
                    guard (try? await sleep(on: clock, for: deadline)) != nil else { return }
                    if report(.failure(WCError(.messageReplyTimedOut, message: "no answer from the engine within \(deadline)"))) {
                        logger.info("the engine did not answer a message in time; reported 7012", metadata: ["deadline": "\(deadline)"])
                    }
                }
                await group.next()
                group.cancelAll()
            }
        }
    }
}
