import WatchPairWire

/// Which message variants a `receive` stream handles, and its automatic reply.
///
/// Only a `--follow` stream that includes the message channel handles messages. Without `--reply` it
/// takes the variants that want no reply (`dictionary`, `data`); a dictionary `--reply` adds
/// `dictionaryWithReply`, a `{"$data":…}` reply adds `dataWithReply`. The other reply variant is left
/// to other handlers (its sender gets 7014 when there is none), since one automatic reply cannot be both
/// a dictionary and data.
public struct MessageHandling: Sendable, Hashable {
    /// The `handle` field of the request; nil when the stream handles no messages.
    public var handle: [String]?
    /// The `autoReply` field of the request.
    public var autoReply: JSONValue?

    /// Decides the handling for a `receive` invocation.
    public init(follow: Bool, channels: [ReceiveChannel], reply: (json: JSONValue, isData: Bool)?) {
        guard follow, channels.isEmpty || channels.contains(.message) else {
            handle = nil
            autoReply = nil
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
}
