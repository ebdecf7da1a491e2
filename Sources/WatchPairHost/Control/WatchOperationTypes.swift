import WatchPairWire

// A phone's watches on the control socket (docs/Watches.md, docs/ControlProtocol.md): the operations' types,
// served by phoned (WatchPairDaemon) and by a WCSession phone app (WatchConnectivity), each beside its handlers.

/// `watches`: the phone's watches.
public struct WatchesOperation: FieldlessControlOperation {
    public static let name = "watches"

    public init() {}
}

/// An operation on one of the phone's watches: its one field is `watch`, the watch's name.
public protocol WatchNameOperation: ControlOperation {
    /// The watch's name.
    var watch: String { get }
    /// The operation on `watch`.
    init(watch: String)
}

extension WatchNameOperation {
    public init(fields: inout ControlFieldReader) throws(WCFailure) {
        self.init(watch: try Self.required("watch", from: &fields) { fields throws(WCFailure) in try fields.string() })
    }
}

/// `pair`: pairs the listed watch `watch` again.
public struct PairWatchOperation: WatchNameOperation {
    public static let name = "pair"
    public let watch: String

    public init(watch: String) {
        self.watch = watch
    }
}

/// `unpair`: unpairs `watch`, dropping what the phone queued for it.
public struct UnpairWatchOperation: WatchNameOperation {
    public static let name = "unpair"
    public let watch: String

    public init(watch: String) {
        self.watch = watch
    }
}

/// `switch`: makes `watch` the active watch.
public struct SwitchWatchOperation: WatchNameOperation {
    public static let name = "switch"
    public let watch: String

    public init(watch: String) {
        self.watch = watch
    }
}
