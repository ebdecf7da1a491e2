import Foundation

/// The body of a live message or of its reply: `sendMessage` carries a dictionary,
/// `sendMessageData` carries bytes. A reply always has the variant of its message.
public enum MessageBody: Sendable, Hashable {
    /// A dictionary (`sendMessage`, `replyHandler` with a dictionary).
    case dictionary(PlistDictionary)
    /// Bytes (`sendMessageData`, `replyHandler` with data).
    case data(Data)
}

/// What one side needs from the other to resume after any crash or reconnect.
///
/// Each side's store has a random `storeId`; what a receiver knows is only valid for the sender store
/// it learned it from, so a sender whose store was recreated starts again at sequence 1 without
/// its transfers being mistaken for duplicates.
public struct ResumeState: Sendable, Hashable {
    /// The peer store this knowledge refers to, or nil when this side has never heard from a peer.
    public var peerStoreId: UUID?
    /// The highest userInfo sequence number durably received from that peer store (0: none).
    public var lastUserInfoSeq: UInt64
    /// The highest application-context version durably received from that peer store (0: none).
    public var contextVersion: UInt64

    /// Resume state from its three fields.
    public init(peerStoreId: UUID?, lastUserInfoSeq: UInt64, contextVersion: UInt64) {
        self.peerStoreId = peerStoreId
        self.lastUserInfoSeq = lastUserInfoSeq
        self.contextVersion = contextVersion
    }
}

/// The first frame each side sends on a new connection.
public struct Hello: Sendable, Hashable {
    /// The wire protocol version this build speaks: 5 (2 added the file frames, 3 `complicationUserInfo`,
    /// 4 `launch`, 5 a `fileChunk`'s trailer without its bytes).
    public static let currentProtocolVersion: UInt16 = 5

    /// The wire protocol version the sender speaks; a receiver that speaks another rejects the
    /// hello (`FrameError.unsupportedVersion`).
    public var protocolVersion: UInt16
    /// The sender's role; the two sides of a link must differ.
    public var role: Role
    /// Identifies the pair; both sides must be configured with the same one.
    public var pairId: String
    /// The sender's store identity (see `ResumeState`).
    public var storeId: UUID
    /// How the sender was launched; a phone only considers a foreground watch reachable.
    public var launch: LaunchMode
    /// What the sender has durably received, for the peer to resume from.
    public var resume: ResumeState

    /// A hello; `protocolVersion` defaults to this build's.
    public init(
        protocolVersion: UInt16 = Hello.currentProtocolVersion,
        role: Role,
        pairId: String,
        storeId: UUID,
        launch: LaunchMode,
        resume: ResumeState
    ) {
        self.protocolVersion = protocolVersion
        self.role = role
        self.pairId = pairId
        self.storeId = storeId
        self.launch = launch
        self.resume = resume
    }
}

/// One unit on the peer link. See docs/WireFormat.md for the byte layout of each;
/// `FrameEncoder` and `FrameDecoder` convert.
public enum Frame: Sendable, Hashable {
    /// Handshake; must be the first frame in each direction.
    case hello(Hello)
    /// A live message. `id` is unique per connection and sender; `wantsReply` selects the handler variant.
    case message(id: UInt64, wantsReply: Bool, body: MessageBody)
    /// The reply to message `id`.
    case reply(id: UInt64, body: MessageBody)
    /// An error. `relatesTo` is the message id it answers, or 0 for the link itself
    /// (the sender closes the connection after a link-level error).
    case error(relatesTo: UInt64, code: WCErrorCode, reason: String)
    /// A userInfo transfer with its per-sender-store sequence number. `after` is the `seq` of the transfer
    /// sent just before it on this link (or the resume point for the first one), so the receiver can tell a
    /// gap (a lost frame, or a cancelled transfer's number skipped) from a contiguous stream: cancelled
    /// numbers are skipped by the sender, never by the link. The payload travels as the bytes it was
    /// encoded to when the app handed it over (`EncodedDictionary`).
    case userInfo(seq: UInt64, after: UInt64, transferId: UUID, payload: EncodedDictionary)
    /// A userInfo transfer sent as the current complication info (`transferCurrentComplicationUserInfo`
    /// within the day's budget): a `userInfo` with a flag, in the same sequence and `after` chain, so it
    /// is delivered in order with the other userInfo. Its own type byte leaves `userInfo` frames as they were.
    case complicationUserInfo(seq: UInt64, after: UInt64, transferId: UUID, payload: EncodedDictionary)
    /// Cumulative acknowledgement: every userInfo up to and including `upTo` is durably received.
    case ack(upTo: UInt64)
    /// The sender's application context, `version` increasing per sender store. Like userInfo, the payload
    /// travels as the bytes it was encoded to when the app set it.
    case context(version: UInt64, payload: EncodedDictionary)
    /// The receiver durably holds context `version`.
    case contextAck(version: UInt64)
    /// Keep-alive probe; answered by `pong` with the same nonce.
    case ping(nonce: UInt64)
    /// Keep-alive answer.
    case pong(nonce: UInt64)
    /// Offers file transfer `offer.seq` (or offers it again after a reconnect); answered by `fileAck`.
    case fileOffer(FileOffer)
    /// Bytes `offset..<offset + bytes.count` of file `seq`. Chunks of a file follow each other without gaps
    /// from the offset the receiver acknowledged.
    case fileChunk(seq: UInt64, offset: UInt64, bytes: Data)
    /// The receiver durably holds the first `offset` bytes of file `seq`: the answer to an offer (where to
    /// resume) and the progress acknowledgement while chunks arrive.
    case fileAck(seq: UInt64, offset: UInt64)
    /// File `seq` ended (`FileEndStatus` says how and who sends it).
    case fileEnd(seq: UInt64, status: FileEndStatus)
    /// The sender app's launch mode changed since its hello: a background-launched app was opened
    /// (`wcctl open`, `systemctl reload`) and now runs in the foreground, so a phone considers it reachable.
    case launch(LaunchMode)
}
