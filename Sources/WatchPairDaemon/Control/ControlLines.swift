import WatchPairCore
import WatchPairWire

/// The lines of the hot control responses and stream events, written member by member
/// (``JSONMemberWriter``) instead of through a `JSONValue` tree.
///
/// These are the lines written once per message or transfer: `send`/`sendData` and `transfer` results,
/// and the `message`, `userInfo` and `didFinish` events of `receive --follow`. Each is byte for byte
/// what the tree gave (`ControlLinesTests` holds them equal); members go in canonical (UTF-8 byte) order.
enum ControlLines {
    /// The result of `send`/`sendData`: `{}`, or `{"reply": …}` with a dictionary or base64 data.
    static func sendResult(_ id: Int64, reply: MessageBody?) -> [UInt8] {
        ControlResponse.successLine(id) { result in
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

    /// A `userInfo` event: a received transfer, acknowledged later by its `deliveryId`.
    static func userInfo(_ id: Int64, _ transfer: InboxTransfer) -> [UInt8] {
        ControlResponse.streamEventLine(id, "userInfo") { data in
            data.add("deliveryId", integer: Int64(clamping: transfer.deliveryId))
            // Only when set, so plain userInfo lines stay as they were.
            if transfer.isCurrentComplicationInfo { data.add("isCurrentComplicationInfo", bool: true) }
            data.add("receivedAt", date: transfer.receivedAt)
            data.add("seq", integer: Int64(clamping: transfer.seq))
            data.add("transferId", string: transfer.transferId.uuidString)
            data.add("userInfo", plist: transfer.payload)
        }
    }

    /// A `didFinish` event of a userInfo transfer.
    static func finished(_ id: Int64, _ transfer: OutboxTransfer) -> [UInt8] {
        ControlResponse.streamEventLine(id, "didFinish") { data in
            data.add("seq", integer: Int64(clamping: transfer.seq))
            data.add("transferId", string: transfer.transferId.uuidString)
            data.add("userInfo", plist: transfer.payload)
        }
    }
}
