import WatchPairWire

/// Which message variants a `receive` stream handles, and how it answers them automatically.
///
/// Only a `--follow` stream that includes the message channel handles messages. Without `--reply` or
/// `--error` it takes the variants that want no reply (`dictionary`, `data`); a dictionary `--reply`
/// adds `dictionaryWithReply`, a `{"$data":…}` reply adds `dataWithReply`. The other reply variant is
/// left to other handlers (its sender gets 7014 when there is none), since one automatic reply cannot
/// be both a dictionary and data. `--error CODE` handles all four variants and answers those that want
/// a reply with that WCError (app-level faults); `--delay S` holds every handled message S seconds first.
public struct MessageHandling: Sendable, Hashable {
    /// The `handle` field of the request; nil when the stream handles no messages.
    public var handle: [String]?
    /// The `autoReply` field of the request.
    public var autoReply: JSONValue?
    /// The `autoError` field of the request.
    public var autoError: Int?
    /// The `autoDelay` field of the request, in seconds.
    public var autoDelay: Double?

    /// Decides the handling for a `receive` invocation.
    public init(
        follow: Bool, channels: [ReceiveChannel], reply: (json: JSONValue, isData: Bool)?,
        error: WCErrorCode? = nil, delay: Double? = nil
    ) {
        autoError = nil
        autoDelay = nil
        guard follow, channels.isEmpty || channels.contains(.message) else {
            handle = nil
            autoReply = nil
            return
        }
        autoDelay = delay
        if let error {
            handle = ["dictionary", "dictionaryWithReply", "data", "dataWithReply"]
            autoReply = nil
            autoError = error.rawValue
            return
        }
        switch reply {
        case nil:
            handle = ["dictionary", "data"]
            autoReply = nil
        case let (json, isData)?:
            handle = isData ? ["dictionary", "data", "dataWithReply"] : ["dictionary", "dictionaryWithReply", "data"]
            autoReply = json
        }
    }

    /// Fills the request's `handle`, `autoReply`, `autoError` and `autoDelay`.
    func apply(to request: inout ControlRequest) {
        request.set("handle", handle)
        request.set("autoReply", autoReply)
        request.set("autoError", autoError)
        request.set("autoDelay", autoDelay)
    }
}
