import Testing
import WatchConnection

@Suite("Delivery strategy and fallback decision")
struct DeliveryPlannerTests {
    typealias Row = (DeliveryStrategy, DeliveryMode, Bool, DeliveryPlanner.Step)

    /// Five strategies × two modes × reachability, activated.
    static let activatedRows: [Row] = [
        (.messageWithUserInfoFallback, .queued, true, .send(.message)),
        (.messageWithUserInfoFallback, .queued, false, .fallback(to: .userInfo)),
        (.messageWithUserInfoFallback, .immediate, true, .send(.message)),
        (.messageWithUserInfoFallback, .immediate, false, .fail(.notReachable)),
        (.messageWithContextFallback, .queued, true, .send(.message)),
        (.messageWithContextFallback, .queued, false, .fallback(to: .context)),
        (.messageWithContextFallback, .immediate, true, .send(.message)),
        (.messageWithContextFallback, .immediate, false, .fail(.notReachable)),
        (.messageOnly, .queued, true, .send(.message)),
        (.messageOnly, .queued, false, .queue),
        (.messageOnly, .immediate, true, .send(.message)),
        (.messageOnly, .immediate, false, .fail(.notReachable)),
        (.userInfoOnly, .queued, true, .send(.userInfo)),
        (.userInfoOnly, .queued, false, .send(.userInfo)),
        (.userInfoOnly, .immediate, true, .send(.userInfo)),
        (.userInfoOnly, .immediate, false, .send(.userInfo)),
        (.contextOnly, .queued, true, .send(.context)),
        (.contextOnly, .queued, false, .send(.context)),
        (.contextOnly, .immediate, true, .send(.context)),
        (.contextOnly, .immediate, false, .send(.context)),
    ]

    @Test("first step when activated", arguments: activatedRows)
    func initial(row: Row) {
        let (strategy, mode, reachable, step) = row
        #expect(DeliveryPlanner.initial(strategy: strategy, mode: mode, activated: true, reachable: reachable) == step)
    }

    @Test("not activated: queued mode queues, immediate fails", arguments: DeliveryStrategy.allCases)
    func notActivated(strategy: DeliveryStrategy) {
        #expect(DeliveryPlanner.initial(strategy: strategy, mode: .queued, activated: false, reachable: false) == .queue)
        #expect(DeliveryPlanner.initial(strategy: strategy, mode: .immediate, activated: false, reachable: false) == .fail(.notActivated))
    }

    @Test("after a message failed for good", arguments: [
        (DeliveryStrategy.messageWithUserInfoFallback, DeliveryMode.immediate, WatchConnectionError.sessionError(code: 7014, description: ""), DeliveryPlanner.Step.fallback(to: .userInfo)),
        (.messageWithContextFallback, .queued, .sessionError(code: 7011, description: ""), .fallback(to: .context)),
        (.messageWithUserInfoFallback, .queued, .sessionError(code: 7009, description: ""), .fail(.sessionError(code: 7009, description: ""))),
        (.messageWithUserInfoFallback, .queued, .sessionError(code: 7010, description: ""), .fail(.sessionError(code: 7010, description: ""))),
        (.messageWithUserInfoFallback, .queued, .handlerNotRegistered(requestType: "X"), .fail(.handlerNotRegistered(requestType: "X"))),
        (.messageOnly, .queued, .sessionError(code: 7007, description: ""), .queue),
        (.messageOnly, .queued, .sessionError(code: 7014, description: ""), .fail(.sessionError(code: 7014, description: ""))),
        (.messageOnly, .immediate, .sessionError(code: 7007, description: ""), .fail(.sessionError(code: 7007, description: ""))),
    ])
    func afterFailure(strategy: DeliveryStrategy, mode: DeliveryMode, error: WatchConnectionError, step: DeliveryPlanner.Step) {
        #expect(DeliveryPlanner.afterMessageFailure(strategy: strategy, mode: mode, error: error) == step)
    }

    @Test("strategies name their channels", arguments: [
        (DeliveryStrategy.messageWithUserInfoFallback, DeliveryMethod.message, DeliveryMethod?.some(.userInfo)),
        (.messageWithContextFallback, .message, .context), (.messageOnly, .message, nil),
        (.userInfoOnly, .userInfo, nil), (.contextOnly, .context, nil),
    ])
    func channels(strategy: DeliveryStrategy, primary: DeliveryMethod, fallback: DeliveryMethod?) {
        #expect(strategy.primaryMethod == primary)
        #expect(strategy.fallbackMethod == fallback)
        #expect(strategy.hasFallback == (fallback != nil))
    }
}
