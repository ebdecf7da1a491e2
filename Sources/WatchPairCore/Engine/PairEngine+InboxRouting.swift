import WatchPairWire

extension PairEngine {
    /// Routes every userInfo received from now on: `router` names the ``InboxQueue`` of its consumer,
    /// once, on arrival (it runs on the receive path, so it should look at the bytes, not decode them).
    /// Set it before ``run()``; each queue then has one reader (``pendingUserInfo(after:limit:queue:)``)
    /// and one acknowledger (``acknowledgeUserInfo(upTo:queue:)``), and no reader sees another's items.
    public nonisolated func routeInbox(_ router: @escaping @Sendable (EncodedDictionary) -> InboxQueue) {
        inboxRouter.withLock { $0 = router }
    }

    /// The queues of the received transfers that are not the app's, by seq.
    func inboxQueues(of chain: [ReceivedUserInfo]) -> [UInt64: InboxQueue] {
        guard let inboxRouter = inboxRouter.withLock({ $0 }) else { return [:] }
        var queues: [UInt64: InboxQueue] = [:]
        for transfer in chain {
            let queue = inboxRouter(transfer.payload)
            if queue != .app { queues[transfer.seq] = queue }
        }
        return queues
    }
}
