/// One `AsyncStream` per subscriber of a sequence of values, each with a bounded buffer.
///
/// Bound: each subscriber's buffer holds the newest `limit` values; a subscriber that falls further
/// behind loses the oldest ones (it still sees the latest). Values published while nobody subscribes
/// go to a backlog of the same bound (oldest dropped) that the first subscriber receives, so what
/// happens between `init` and the first `for await` (e.g. a corrupt queue file found at start) is seen.
@MainActor
final class Broadcast<Element: Sendable> {
    private let limit: Int
    private var subscribers: [Int: AsyncStream<Element>.Continuation] = [:]
    private var nextID = 0
    private var backlog: [Element] = []
    private let keepsBacklog: Bool

    /// A broadcast whose subscribers each buffer `limit` values.
    init(limit: Int, keepsBacklog: Bool) {
        self.limit = max(1, limit)
        self.keepsBacklog = keepsBacklog
    }

    /// A new subscription, starting with `initial` (if any), then every published value.
    func subscribe(initial: Element? = nil) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .bufferingNewest(limit))
        let id = nextID
        nextID += 1
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.subscribers[id] = nil }
        }
        if let initial { continuation.yield(initial) }
        for value in backlog.suffix(limit) { continuation.yield(value) }
        backlog = []
        return stream
    }

    /// Sends `value` to every subscriber (or to the backlog when there is none).
    func publish(_ value: Element) {
        if subscribers.isEmpty {
            guard keepsBacklog else { return }
            backlog.append(value)
            // Trimmed once per `limit` values, not per value: dropping the oldest of a full backlog moved
            // all the others every time, and an app that never subscribes publishes into it for good.
            if backlog.count >= 2 * limit { backlog.removeFirst(backlog.count - limit) }
            return
        }
        for continuation in subscribers.values { continuation.yield(value) }
    }

    /// Ends every subscription.
    func finish() {
        for continuation in subscribers.values { continuation.finish() }
        subscribers = [:]
    }
}
