import Foundation
import WatchConnection

/// Live messages: each draws its fate (`Fault`), and each reply meets the reply quirks.
extension FlakySession {
    /// Delivers to the peer (or itself), with the fault drawn for it (see the type's order).
    public func sendMessage(
        _ message: [String: String],
        replyHandler: (@Sendable ([String: String]) -> Void)?,
        errorHandler: @escaping @Sendable (any Error) -> Void
    ) {
        let sentAt = elapsed()
        let (fault, error, delay) = state.withLock { state -> (Fault, (any Error)?, Duration) in
            let (fault, error) = Self.fate(&state)
            state.history.append(fault)
            state.totalAttempts += 1
            switch fault {
            case .deliver: state.successfulAttempts += 1
            case .fail, .loseReply: state.failedAttempts += 1
            case .stuck: break
            }
            var delay = state.latency
            if fault == .deliver || fault == .loseReply, state.delayProbability > 0,
               Double.random(in: 0..<1, using: &state.random) < state.delayProbability {
                delay += state.draw(state.delayRange)
            }
            return (fault, error, delay)
        }
        guard fault != .stuck else { return }
        let target = self.target
        let latency = state.withLock { $0.latency }
        later(delay) {
            guard let target else { return errorHandler(Self.error(7007)) }
            let reply: (@Sendable ([String: String]) -> Void)?
            switch fault {
            case .fail(let code):
                return errorHandler(error ?? Self.error(code))
            case .loseReply:
                reply = { @Sendable _ in errorHandler(Self.error(7011)) }
            case .deliver, .stuck:
                reply = replyHandler.map { replyHandler in
                    { @Sendable answer in self.replied(answer, sentAt: sentAt, latency: latency, replyHandler, errorHandler) }
                }
            }
            target.report(.message(message, reply: reply))
        }
    }

    /// A message's fate, and for a failure drawn from `failureProbability` the error to report.
    private static func fate(_ state: inout FlakySessionState) -> (Fault, (any Error)?) {
        if state.activationState != .activated { return (.fail(code: 7004), nil) }
        if state.isStuck { return (.stuck, nil) }
        if state.inject(.phantomReachability) != nil { return (.fail(code: 7007), nil) }
        if !state.isReachable || state.reachabilityHidden { return (.fail(code: 7007), nil) }
        if !state.script.isEmpty { return (state.script.removeFirst(), nil) }
        if Double.random(in: 0..<1, using: &state.random) < state.failureProbability {
            let errors = state.possibleErrors
            let error = errors.count > 1 ? errors[Int.random(in: 0..<errors.count, using: &state.random)] : errors.first
            return (.fail(code: error.map { ($0 as NSError).code } ?? 7014), error)
        }
        if Double.random(in: 0..<1, using: &state.random) < state.replyLossProbability { return (.loseReply, nil) }
        return (.deliver, nil)
    }

    /// The receiver answered a message this session sent: the reply quirks' opportunity (`lostReply`,
    /// `lateReply`, `replyAndError`, the first that injects acts), else the reply after `latency`.
    private func replied(
        _ answer: [String: String], sentAt: Duration, latency: Duration,
        _ replyHandler: @escaping @Sendable ([String: String]) -> Void, _ errorHandler: @escaping @Sendable (any Error) -> Void
    ) {
        let injection = state.withLock { state in
            state.inject(.lostReply) ?? state.inject(.lateReply) ?? state.inject(.replyAndError)
        }
        guard let injection else { return later(latency) { replyHandler(answer) } }
        let timeout = max(.zero, state.withLock { $0.replyTimeout } - (elapsed() - sentAt))
        switch injection.quirk {
        case .replyAndError:
            later(latency) {
                replyHandler(answer)
                errorHandler(Self.error(7012))
            }
        case .lateReply:
            // 7012 at the timeout; the reply arrives after it, and is dropped (never a second outcome).
            later(timeout) {
                errorHandler(Self.error(7012))
                self.later(injection.delay) { self.state.withLock { $0.droppedLateReplies += 1 } }
            }
        default:
            later(timeout) { errorHandler(Self.error(7012)) }
        }
    }
}
