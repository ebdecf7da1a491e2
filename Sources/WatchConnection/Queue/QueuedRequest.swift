import Foundation

/// A request waiting in the request queue, as persisted: its encoded envelope and when it was queued.
public struct QueuedRequest: Sendable, Hashable, Codable, Identifiable {
    /// The request's id (also its id on the wire).
    public let id: UUID
    /// The request type's wire name.
    public let requestType: String
    /// The strategy it was sent with; the flush delivers it the same way.
    public let strategy: DeliveryStrategy
    /// The encoded envelope (`WireEnvelope`), sent as it is: bytes are encoded once, where they enter.
    public let envelope: String
    /// When it was queued: time since 1970-01-01 on the connection's wall timeline.
    public let enqueuedAt: Duration

    /// A queued request.
    public init(id: UUID, requestType: String, strategy: DeliveryStrategy, envelope: String, enqueuedAt: Duration) {
        self.id = id
        self.requestType = requestType
        self.strategy = strategy
        self.envelope = envelope
        self.enqueuedAt = enqueuedAt
    }
}
