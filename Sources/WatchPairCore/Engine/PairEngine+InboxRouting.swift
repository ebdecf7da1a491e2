import WatchPairWire

/// A rule that routes a received userInfo to an ``InboxQueue`` on arrival: payloads whose encoded bytes
/// (docs/WireFormat.md, "Property lists") start with ``prefix`` go to ``queue``.
///
/// Bytes, not a decoded dictionary or a closure: it runs on the receive path for every transfer, and the
/// owner of a queue knows exactly how its items begin (the daemons' reliability layer sends a one-entry
/// dictionary under its own key).
public struct InboxRoute: Sendable, Hashable {
    /// The first bytes of the payloads routed.
    public var prefix: [UInt8]
    /// Where they go.
    public var queue: InboxQueue

    /// A route of payloads starting with `prefix` to `queue`.
    public init(prefix: [UInt8], queue: InboxQueue) {
        self.prefix = prefix
        self.queue = queue
    }

    /// The queue of `payload` under `routes`: the first route whose prefix it starts with, else the app's.
    public static func queue(of payload: EncodedDictionary, under routes: [InboxRoute]) -> InboxQueue {
        routes.first { payload.bytes.starts(with: $0.prefix) }?.queue ?? .app
    }
}

extension PairEngine {
    /// Routes every userInfo received from now on by `route` (``InboxRoute``), once, on arrival. Add
    /// routes before ``run()``; each queue then has one reader (``pendingUserInfo(after:limit:queue:)``)
    /// and one acknowledger (``acknowledgeUserInfo(upTo:queue:)``), and no reader sees another's items.
    public nonisolated func routeInbox(_ route: InboxRoute) {
        inboxRoutes.withLock { $0.append(route) }
    }

    /// The queues of the received transfers that are not the app's, by seq.
    func inboxQueues(of chain: [ReceivedUserInfo]) -> [UInt64: InboxQueue] {
        let routes = inboxRoutes.withLock { $0 }
        guard !routes.isEmpty else { return [:] }
        var queues: [UInt64: InboxQueue] = [:]
        for transfer in chain {
            let queue = InboxRoute.queue(of: transfer.payload, under: routes)
            if queue != .app { queues[transfer.seq] = queue }
        }
        return queues
    }
}
