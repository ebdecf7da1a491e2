import Foundation
import WatchConnection

/// userInfo and application context: durable, ordered channels, through the transfer quirks.
extension FlakySession {
    /// Delivers to the peer (or itself) after `latency`; 7004 when not activated.
    ///
    /// Under `stuckUserInfo` an injected transfer stays outstanding (`outstandingUserInfoTransfers`)
    /// until the next transfer or a re-activation, which release every stuck one first, in order. While
    /// `isStuck`, every transfer stays outstanding until `simulateRecovery()`.
    public func transferUserInfo(_ userInfo: [String: String]) throws {
        let batch = try state.withLock { state throws -> [[String: String]] in
            guard state.activationState == .activated else { throw Self.error(7004) }
            guard !state.isStuck else {
                state.outstanding.append(userInfo)
                return []
            }
            let released = state.outstanding
            state.outstanding = []
            guard state.inject(.stuckUserInfo) == nil else {
                state.outstanding.append(userInfo)
                return released
            }
            return released + [userInfo]
        }
        send(batch.map(SessionEvent.userInfo))
    }

    /// Delivers to the peer (or itself) after `latency`; 7004 when not activated, 7014 while `isStuck`
    /// (as FlakyWCSession).
    public func updateApplicationContext(_ applicationContext: [String: String]) throws {
        try state.withLock { state throws in
            guard state.activationState == .activated else { throw Self.error(7004) }
            guard !state.isStuck else { throw Self.error(7014) }
            state.sentContext = applicationContext
        }
        guard target != nil else { throw Self.error(7005) }
        send([.applicationContext(applicationContext)])
    }

    /// Hands `events` to the target after `latency`, in order.
    func send(_ events: [SessionEvent]) {
        guard !events.isEmpty else { return }
        let latency = state.withLock { $0.latency }
        guard let target else { return }
        later(latency) { for event in events { target.receiveDurably(event) } }
    }

    /// A durable transfer arrives: it joins the arrivals, held back for the drawn delay when
    /// `delayedDelivery` injects (later arrivals wait behind it), and the ready ones are delivered.
    private func receiveDurably(_ event: SessionEvent) {
        let held = state.withLock { state -> (number: Int, delay: Duration)? in
            state.nextArrival += 1
            let number = state.nextArrival
            let injection = state.inject(.delayedDelivery)
            state.inbound.append(FlakyArrival(number: number, event: event, ready: injection == nil))
            return injection.map { (number, $0.delay) }
        }
        if let held {
            later(held.delay) {
                self.state.withLock { state in
                    if let index = state.inbound.firstIndex(where: { $0.number == held.number }) { state.inbound[index].ready = true }
                }
                self.deliverArrivals()
            }
        }
        deliverArrivals()
    }

    /// Delivers the ready arrivals at the head of the queue, in order, once activated. Each userInfo is
    /// `duplicateUserInfo`'s opportunity (delivered twice); each context becomes the received context.
    ///
    /// One caller drains at a time, outside the lock (the app may call the session back): a caller that
    /// finds a drain going leaves its items to it, so nothing is delivered out of order.
    func deliverArrivals() {
        let receiver = state.withLock { state -> (@Sendable (SessionEvent) -> Void)? in
            guard state.activationState == .activated, let receiver = state.receiver, !state.draining else { return nil }
            state.draining = true
            return receiver
        }
        guard let receiver else { return }
        while true {
            let events = state.withLock { state -> [SessionEvent] in
                var events: [SessionEvent] = []
                while let first = state.inbound.first, first.ready {
                    state.inbound.removeFirst()
                    events.append(first.event)
                    switch first.event {
                    case .userInfo where state.inject(.duplicateUserInfo) != nil: events.append(first.event)
                    case .applicationContext(let context): state.receivedContext = context
                    default: break
                    }
                }
                if events.isEmpty { state.draining = false }
                return events
            }
            guard !events.isEmpty else { return }
            events.forEach(receiver)
        }
    }
}
