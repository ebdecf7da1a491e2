import WatchConnection
import WatchPairCore
import WatchPairWire

/// The reliability layer's own inbox queue (``InboxQueue``): the daemon routes each received userInfo
/// that is exactly the layer's envelope to it, once, on arrival (`AppChannels.routeInbox(_:)`), so the
/// layer reads and acknowledges its items alone, a `receive` client never sees them, and an app's `ack`
/// never removes them.
enum LayerInbox {
    /// The queue of the layer's items.
    static let queue = InboxQueue(rawValue: 1)

    /// The first bytes of an envelope: a dictionary of one entry whose key is `WireEnvelope.key` and
    /// whose value is a string (docs/WireFormat.md, "Property lists"). What the layer sends is exactly
    /// that (`[WireEnvelope.key: <JSON text>]`), so the route compares bytes and decodes nothing. Taken
    /// from the codec's own encoding of an empty envelope, less the string's 4-byte length.
    static let envelopePrefix: [UInt8] = {
        // An empty string cannot fail to encode.
        let empty = try! EncodedDictionary([WireEnvelope.key: .string("")])
        return Array(empty.bytes.dropLast(4))
    }()

    /// The route of the layer's envelopes to its queue.
    static let route = InboxRoute(prefix: envelopePrefix, queue: queue)
}
