import WatchPairCore
import WatchPairWire

/// The one encoder of each control line the daemons write per message, transfer or received item,
/// member by member (``JSONMemberWriter``), without a `JSONValue` tree.
///
/// These are the `send`/`sendData` and `transfer` results, the `message`, `userInfo`, `applicationContext`
/// and `didFinish` events of `receive --follow`, and `receive`'s snapshot, whose items are the same event
/// data written by the same functions. Members go in canonical (UTF-8 byte) order; `ControlLinesTests`
/// holds every line to the literal example in docs/ControlProtocol.md.
enum ControlLines {
    /// The result of `send`/`sendData`: `{}`, or `{"reply": …}` with a dictionary or base64 data; under
    /// the `replyAndError` quirk also `"errorAfterReply": {"code", "name", "message"}`.
    static func sendResult(_ id: Int64, reply: MessageBody?, errorAfterReply: WCFailure? = nil) -> [UInt8] {
        ControlResponse.successLine(id) { result in
            if let errorAfterReply {
                result.add("errorAfterReply", object: { error in
                    error.add("code", integer: Int64(errorAfterReply.code.rawValue))
                    error.add("message", string: errorAfterReply.message)
                    error.add("name", string: errorAfterReply.code.name)
                })
            }
            switch reply {
            case nil: break
            case .dictionary(let dictionary)?: result.add("reply", plist: dictionary)
            case .data(let data)?: result.add("reply", string: data.base64EncodedString())
            }
        }
    }

    /// The result of `transfer` (and of `transferComplication`, with its two members more).
    static func transferResult(_ id: Int64, _ transfer: OutboxTransfer, complicationsRemaining: Int? = nil) -> [UInt8] {
        ControlResponse.successLine(id) { result in
            if complicationsRemaining != nil { result.add("isCurrentComplicationInfo", bool: transfer.isCurrentComplicationInfo) }
            result.add("isTransferring", bool: true)
            if let complicationsRemaining { result.add("remaining", integer: Int64(complicationsRemaining)) }
            result.add("seq", integer: Int64(clamping: transfer.seq))
            result.add("transferId", string: transfer.transferId.uuidString)
        }
    }

    /// A `message` event: the message and the token its answer names.
    static func message(_ id: Int64, token: UInt64, _ message: IncomingMessage) -> [UInt8] {
        ControlResponse.streamEventLine(id, "message") { data in
            switch message.body {
            case .data(let bytes): data.add("data", string: bytes.base64EncodedString())
            case .dictionary(let dictionary): data.add("message", plist: dictionary)
            }
            data.add("token", integer: Int64(clamping: token))
            data.add("variant", string: message.variant.rawValue)
        }
    }

    /// What `receive` delivers: a stream event of `receive --follow`, an item of its snapshot.
    enum Item {
        /// A received userInfo transfer, acknowledged by its `deliveryId`.
        case userInfo(InboxTransfer)
        /// The received context the app has not seen.
        case applicationContext(StoredContext)
        /// A userInfo transfer the peer acknowledged.
        case didFinish(OutboxTransfer)
        /// A file transfer that ended at the peer (7014 when it arrived corrupt).
        case didFinishFile(OutgoingFile)

        /// The event's name.
        var event: String {
            switch self {
            case .userInfo: "userInfo"
            case .applicationContext: "applicationContext"
            case .didFinish, .didFinishFile: "didFinish"
            }
        }

        /// Writes the event's `data` members.
        func write(_ data: inout JSONMemberWriter) {
            switch self {
            case .userInfo(let transfer):
                data.add("deliveryId", integer: Int64(clamping: transfer.deliveryId))
                // Only when set, so plain userInfo lines stay as they were.
                if transfer.isCurrentComplicationInfo { data.add("isCurrentComplicationInfo", bool: true) }
                data.add("receivedAt", date: transfer.receivedAt)
                data.add("seq", integer: Int64(clamping: transfer.seq))
                data.add("transferId", string: transfer.transferId.uuidString)
                data.add("userInfo", plist: transfer.payload)
            case .applicationContext(let context):
                data.add("context", plist: context.payload)
                data.add("version", integer: Int64(clamping: context.version))
            case .didFinish(let transfer):
                data.add("seq", integer: Int64(clamping: transfer.seq))
                data.add("transferId", string: transfer.transferId.uuidString)
                data.add("userInfo", plist: transfer.payload)
            case .didFinishFile(let file):
                if file.outcome == .corrupt { data.add("errorCode", integer: Int64(WCErrorCode.deliveryFailed.rawValue)) }
                data.add("file") { described in
                    described.add("fileName", string: file.fileName)
                    described.add("size", integer: Int64(clamping: file.size))
                }
                data.add("seq", integer: Int64(clamping: file.seq))
                data.add("transferId", string: file.transferId.uuidString)
            }
        }
    }

    /// One item as a `receive --follow` stream event.
    static func event(_ id: Int64, _ item: Item) -> [UInt8] {
        ControlResponse.streamEventLine(id, item.event) { item.write(&$0) }
    }

    /// `receive` without `follow`: `{"items": [{"data": …, "event": …}, …], "more": bool}`.
    static func receiveSnapshot(_ id: Int64, items: [Item], more: Bool) -> [UInt8] {
        ControlResponse.successLine(id, capacity: 256 + 256 * items.count) { result in
            result.add("items") { elements in
                for item in items {
                    elements.appendObject { object in
                        object.add("data") { item.write(&$0) }
                        object.add("event", string: item.event)
                    }
                }
            }
            result.add("more", bool: more)
        }
    }
}
