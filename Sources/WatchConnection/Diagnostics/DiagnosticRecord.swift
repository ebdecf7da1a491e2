import Foundation
import Logging

/// A diagnostic event with the request context the journal files beside it: the id of the
/// request it concerns and the live-message attempt it comes from.
///
/// `DiagnosticEvent` keeps the shape of the reliability guide's cases, which apps match on, so the
/// context travels here instead of in new associated values. A host that logs the layer's events
/// itself (the WatchPair daemons) reads `WatchConnection.diagnosticRecords`; the layer's own swift-log
/// lines carry the same fields.
public struct DiagnosticRecord: Sendable, Hashable {
    /// The event.
    public let event: DiagnosticEvent
    /// The request the event concerns, where there is one.
    public let requestID: UUID?
    /// For `messageSent` and `deliveryFailed`: the live-message attempt (1 for the first) that was
    /// answered or failed; nil where no message attempt was made (a refused encode, a durable channel).
    public let attempt: Int?

    /// The record of `event` with its context.
    public init(_ event: DiagnosticEvent, requestID: UUID? = nil, attempt: Int? = nil) {
        self.event = event
        self.requestID = requestID
        self.attempt = attempt
    }

    /// The event's journal fields plus `WC_REQUEST_ID` and `WC_ATTEMPT` where known.
    var metadata: Logger.Metadata {
        var fields = event.metadata
        if let requestID { fields["WC_REQUEST_ID"] = "\(requestID.uuidString)" }
        if let attempt { fields["WC_ATTEMPT"] = "\(attempt)" }
        return fields
    }
}
