/// One request on the control socket: a single JSON object on one line (docs/ControlProtocol.md).
///
/// Every request carries a client-chosen `id` that its response (and, for streams, every event) echoes.
/// Fields other than `id` and `op` are read only by the operations that document them; unknown keys
/// are ignored so older daemons accept newer clients' extra hints.
public struct ControlRequest: Codable, Sendable, Hashable {
    /// Client-chosen request id, echoed in the response.
    public var id: Int64
    /// What to do.
    public var op: ControlOperation
    /// `send`: the message dictionary (JSON with the `$data`/`$date` conventions).
    public var message: JSONValue?
    /// `sendData`: the message bytes, base64.
    public var data: String?
    /// `send`, `sendData`: true for a message without a reply handler.
    public var noReply: Bool?
    /// `send`, `sendData`: seconds to wait for the reply (default: the daemon's reply timeout); `wait`:
    /// seconds to wait at most (default: no limit).
    public var timeout: Double?
    /// `transfer`, `transferComplication`: the userInfo dictionary.
    public var userInfo: JSONValue?
    /// `contextSet`: the new application context.
    public var context: JSONValue?
    /// `cancel`, `cancelFile`: the transfer to cancel (UUID string).
    public var transferId: String?
    /// `transferFile`: the absolute path of the file, read by the daemon (as its own user).
    public var path: String?
    /// `setComplication`: whether the watch app's complication is enabled.
    public var enabled: Bool?
    /// `transferFile`: the file's metadata dictionary (JSON with the `$data`/`$date` conventions).
    public var metadata: JSONValue?
    /// `contextGet`: true for the last received context instead of the last sent one.
    public var received: Bool?
    /// `receive`, `events`: keep the request open and stream events until the client closes;
    /// `transferFile`: stream the file's progress until the peer has it (or it fails or is cancelled).
    public var follow: Bool?
    /// `receive`: the channels to deliver (`message`, `userInfo`, `applicationContext`, `didFinish`); default all.
    public var channels: [String]?
    /// `receive`: the message variants this client answers (`dictionary`, `dictionaryWithReply`, `data`, `dataWithReply`).
    public var handle: [String]?
    /// `receive`: answer every message that wants a reply with this dictionary (instead of `answer` requests).
    public var autoReply: JSONValue?
    /// `ack`: the app has taken every received userInfo up to this `deliveryId`.
    public var deliveryId: UInt64?
    /// `ack`: transfers whose didFinish the app has seen.
    public var finished: [String]?
    /// `ack`: the received context version the app has seen.
    public var contextVersion: UInt64?
    /// `answer`: the token of the incoming message being answered.
    public var token: UInt64?
    /// `answer`: the reply (a dictionary, or `{"$data": …}` for a data message).
    public var reply: JSONValue?
    /// `answer`: answer with this WCError code instead of a reply.
    public var errorCode: Int?
    /// `receive`: seconds to hold each handled message before confirming or automatically answering it.
    public var autoDelay: Double?
    /// `receive`: answer every message that wants a reply with this WCError code (instead of `autoReply`).
    public var autoError: Int?
    /// `wait`: the condition to wait for.
    public var condition: WaitCondition?
    /// `request`, `serve`: the typed request's wire name (docs/WatchConnection.md); `wait` with the
    /// `handler` condition: wait for a `serve` client of this type instead of a `receive` client.
    public var requestType: String?
    /// `request`: the request's body, any JSON (default `{}`); sent as it is, without `$data`/`$date`.
    public var body: JSONValue?
    /// `request`: the delivery strategy (`messageWithUserInfoFallback`, the default, …).
    public var strategy: String?
    /// `request`: `queued` (the default) or `immediate`.
    public var mode: String?
    /// `request`: the retry policy: `default`, `patient`, `none` or `N/SECONDS`.
    public var retry: String?
    /// `serve`: the client answers each request itself, with `respond` and the request's `token`.
    public var answers: Bool?
    /// `queueCancel`: the queued request to cancel (UUID string).
    public var requestId: String?
    /// `queueCancel`: cancel every queued request.
    public var all: Bool?
    /// `syncSet`, `syncGet`: the synced key (DESIGN §10).
    public var key: String?
    /// `syncSet`: the key's new value, any JSON.
    public var value: JSONValue?
    /// `syncSet`: the key's availability (`all`, `phoneOnly`, `watchOnly`, `phoneWithWatchSync`).
    public var availability: String?
    /// `syncSet`: the key's sync policy (`never`, `manual`, `automaticSmall`).
    public var policy: String?

    /// A request with only `id` and `op`; set the fields the operation reads.
    public init(id: Int64, op: ControlOperation) {
        self.id = id
        self.op = op
    }
}

/// The control operations (docs/ControlProtocol.md documents each one's fields and result).
public enum ControlOperation: String, Codable, Sendable, Hashable, CaseIterable {
    /// Session state: activation, reachability, link, queues, context versions.
    case status
    /// `sendMessage` with a dictionary.
    case send
    /// `sendMessageData` with bytes.
    case sendData
    /// `transferUserInfo`.
    case transfer
    /// `outstandingUserInfoTransfers`.
    case transfers
    /// Cancel an outstanding transfer.
    case cancel
    /// `transferFile(_:metadata:)`; with `follow`, the file's progress until it ends.
    case transferFile
    /// Outstanding outgoing files with their progress, and the files in the app's `files/` directory.
    case files
    /// Cancel an outstanding file transfer.
    case cancelFile
    /// `updateApplicationContext`.
    case contextSet
    /// `applicationContext` / `receivedApplicationContext`.
    case contextGet
    /// Act as the app: receive userInfo, contexts, didFinish notices and messages.
    case receive
    /// Acknowledge what a `receive` stream delivered.
    case ack
    /// Answer an incoming message delivered to a `receive` stream.
    case answer
    /// Diagnostic events.
    case events
    /// Block until a condition on the app's state holds (or a timeout passes).
    case wait
    /// A typed request through the reliability layer; its response.
    case request
    /// Act as the app's handler of one request type (a stream of the requests it answers).
    case serve
    /// Answer a request shown to a `serve` stream with `answers`.
    case respond
    /// The reliability layer's health, connection mode and recent recovery suggestions.
    case health
    /// The layer's persisted request queue.
    case queue
    /// Cancel one queued request, or all.
    case queueCancel
    /// Switch the layer to active mode (queued requests flush when the peer is reachable).
    case connect
    /// Switch the layer to passive mode, cancelling every pending request.
    case disconnect
    /// Keyed sync: set a key's value (registering it, or changing its options).
    case syncSet
    /// Keyed sync: one key's value and state.
    case syncGet
    /// Keyed sync: every key with its revision, last sync, needSync and why it is not sent.
    case syncList
    /// Keyed sync: send what needs a sync now (and on the watch, ask the phone for its snapshot).
    case syncNow
    /// Uninstall this app: the peer's content to it fails with 7006/7018 until `install`.
    case uninstall
    /// Install this app again after `uninstall`.
    case install
    /// The user opens the app: a background launch moves to the foreground (reachable, no idle exit).
    case open
    /// Enable or disable the watch app's complication (`enabled`); the phone's `isComplicationEnabled`.
    case setComplication
    /// `transferCurrentComplicationUserInfo` (`userInfo`), phone only; the result says whether it went as
    /// the current complication info and how many such transfers remain today.
    case transferComplication
}
