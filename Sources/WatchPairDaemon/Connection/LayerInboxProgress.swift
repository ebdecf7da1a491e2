/// How far the daemon's reliability layer has read and acknowledged the app's inbox (``EngineSession``).
///
/// The inbox holds the layer's items (they carry its envelope) and a `receive` client's, interleaved.
/// The layer acknowledges its items only as an unbroken run from the inbox's head, so it must read the
/// head again after every change while it holds an unacknowledged item, and never otherwise: a daemon
/// whose traffic is all the client's pays nothing for the layer.
struct LayerInboxProgress: Equatable {
    /// The newest inbox item looked at (the layer's or not); the next read starts after it.
    private(set) var cursor: UInt64 = 0
    /// The newest of the layer's items handed to it.
    private(set) var handed: UInt64 = 0
    /// Every layer item up to this one is acknowledged.
    private(set) var acknowledged: UInt64 = 0

    /// The inbox item `deliveryId` was read; `layers` when it carries the layer's envelope.
    mutating func saw(_ deliveryId: UInt64, layers: Bool) {
        cursor = max(cursor, deliveryId)
        if layers { handed = max(handed, deliveryId) }
    }

    /// The inbox is acknowledged up to `deliveryId`.
    mutating func acknowledged(upTo deliveryId: UInt64) {
        acknowledged = max(acknowledged, deliveryId)
    }

    /// Whether a layer item handed on is not yet acknowledged: only then is the inbox's head read.
    var owesAcknowledgement: Bool { handed > acknowledged }
}
