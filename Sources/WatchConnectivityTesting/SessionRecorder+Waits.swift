import WatchConnectivity
import WatchPairTesting

extension SessionRecorder {
    /// How long a wait may take unless the test says otherwise.
    public static let defaultLimit: Duration = .seconds(30)

    /// The next event, waiting for it if none is unread.
    ///
    /// - Parameter limit: After this long on the real clock, throws `TimedOut`: a safety net, never what a
    ///   test measures (time on the pair's clock passes by its deadlines). A self-driving pair's clock is
    ///   driven meanwhile.
    /// - Throws: `TimedOut`; ``EventQueueOverflow`` once after events were dropped; `CancellationError`.
    public func next(within limit: Duration = defaultLimit) async throws -> WCSessionEvent {
        try await bounded(by: waits, "the next delegate callback", within: limit) { try await self.queue.next() }
    }

    /// The first event that `matches`, skipping (and consuming) the ones before it. A test that only waits
    /// for it may ignore the event: `try await phone.first { $0 == .deactivated }`.
    ///
    /// Bounded as ``next(within:)`` is, the limit counting from the call.
    @discardableResult
    public func first(
        where matches: @escaping @Sendable (WCSessionEvent) -> Bool, within limit: Duration = defaultLimit
    ) async throws -> WCSessionEvent {
        try await bounded(by: waits, "a delegate callback that matches", within: limit) {
            while true {
                let event = try await self.queue.next()
                if matches(event) { return event }
            }
        }
    }

    /// What `extract` takes from the first event it takes something from, skipping (and consuming) the
    /// events before it: `try await watch.first(\.userInfo)`, `try await phone.first(\.message)`.
    ///
    /// Bounded as ``next(within:)`` is, the limit counting from the call.
    public func first<Value: Sendable>(
        _ extract: @escaping @Sendable (WCSessionEvent) -> Value?, within limit: Duration = defaultLimit
    ) async throws -> Value {
        try await bounded(by: waits, "a delegate callback with \(Value.self)", within: limit) {
            while true {
                if let value = extract(try await self.queue.next()) { return value }
            }
        }
    }

    /// The next `count` events, in order (bounded as ``next(within:)`` is, for all of them together).
    public func next(_ count: Int, within limit: Duration = defaultLimit) async throws -> [WCSessionEvent] {
        try await bounded(by: waits, "\(count) delegate callbacks", within: limit) {
            var events: [WCSessionEvent] = []
            while events.count < count { events.append(try await self.queue.next()) }
            return events
        }
    }

    /// Events recorded and not taken yet, oldest first (does not take them).
    public var unread: [WCSessionEvent] { queue.unread }

    /// Every event from the oldest unread one on, as an async sequence without a time limit of its own
    /// (each event is handed out once: to this sequence or to a wait, whichever asks first).
    public var events: Events { Events(queue: queue) }

    /// The recorder's events as an `AsyncSequence`; it never finishes by itself.
    public struct Events: AsyncSequence, Sendable {
        public typealias Element = WCSessionEvent
        let queue: EventQueue<WCSessionEvent>

        public func makeAsyncIterator() -> Iterator { Iterator(queue: queue) }

        /// Takes the recorder's events one at a time.
        public struct Iterator: AsyncIteratorProtocol {
            let queue: EventQueue<WCSessionEvent>

            /// The next event; throws `CancellationError` when the task is cancelled.
            public mutating func next() async throws -> WCSessionEvent? {
                try await queue.next()
            }
        }
    }
}
