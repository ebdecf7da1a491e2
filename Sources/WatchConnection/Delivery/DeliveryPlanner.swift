/// Which channel a request takes: the strategy/fallback decision, pure (a table in the tests).
///
/// | strategy | peer reachable | `.immediate` | `.queued` |
/// |---|---|---|---|
/// | any | session not activated | fail `notActivated` | queue |
/// | `messageOnly` | yes | message | message |
/// | `messageOnly` | no | fail `notReachable` | queue |
/// | `messageWith…Fallback` | yes | message | message |
/// | `messageWith…Fallback` | no | fail `notReachable` | fallback channel |
/// | `userInfoOnly`, `contextOnly` | either | its channel | its channel |
///
/// After a message failed for good (not retryable, or out of attempts): a request error (7008, 7009,
/// 7010) or an answer from the receiver (`handlerNotRegistered`, `handlerError`) fails the send; any
/// other failure takes the fallback channel if the strategy has one, else queues the request in
/// `.queued` mode when the peer was unreachable, else fails.
public enum DeliveryPlanner {
    /// The next step of a send.
    public enum Step: Sendable, Hashable {
        /// Send on this channel.
        case send(DeliveryMethod)
        /// The message could not go: use this channel instead (`fallbackUsed`).
        case fallback(to: DeliveryMethod)
        /// Persist the request in the queue until the peer is reachable.
        case queue
        /// End the send with this error.
        case fail(WatchConnectionError)
    }

    /// The first step.
    public static func initial(strategy: DeliveryStrategy, mode: DeliveryMode, activated: Bool, reachable: Bool) -> Step {
        guard activated else { return mode == .queued ? .queue : .fail(.notActivated) }
        guard strategy.primaryMethod == .message else { return .send(strategy.primaryMethod) }
        if reachable { return .send(.message) }
        guard mode == .queued else { return .fail(.notReachable) }
        if let fallback = strategy.fallbackMethod { return .fallback(to: fallback) }
        return .queue
    }

    /// The step after a message failed with `error` and will not be retried.
    public static func afterMessageFailure(strategy: DeliveryStrategy, mode: DeliveryMode, error: WatchConnectionError) -> Step {
        switch error {
        case .payloadTooLarge, .encodingFailed, .handlerNotRegistered, .handlerError, .cancelled, .timeout:
            return .fail(error)
        case .sessionError where error.blamesRequest:
            return .fail(error)
        default:
            break
        }
        if let fallback = strategy.fallbackMethod { return .fallback(to: fallback) }
        if mode == .queued, error == .notReachable || error.code == 7007 { return .queue }
        return .fail(error)
    }
}
