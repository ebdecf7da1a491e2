/// Which consumer a received userInfo belongs to: each is routed once, on arrival, to one queue of the
/// inbox, and each queue has one reader that takes and acknowledges only its own items. The app's queue
/// is ``app``; a layer above the engine that receives its own traffic as userInfo (the daemons'
/// reliability layer) names its queue and routes to it (``PairEngine/routeInbox(_:)``), so the app never
/// sees the layer's items and an app's acknowledgement never removes them.
///
/// Stored with each inbox row (`inbox.queue`), so a restart keeps every item in the queue it arrived in.
public struct InboxQueue: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The number stored in the inbox.
    public let rawValue: UInt8

    /// A queue; 0 is the app's.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The app's own: what `receive` and `WCSession`'s delegate are given.
    public static let app = InboxQueue(rawValue: 0)

    public var description: String { rawValue == 0 ? "app" : "queue \(rawValue)" }
}
