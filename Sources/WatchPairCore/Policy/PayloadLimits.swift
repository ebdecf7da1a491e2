import WatchPairWire

/// Size limits per channel (Apple's empirical values by default), measured on the encoded property list.
public struct PayloadLimits: Sendable, Hashable {
    /// `sendMessage` / `sendMessageData` and their replies.
    public var message: Int
    /// `transferUserInfo`.
    public var userInfo: Int
    /// `updateApplicationContext`.
    public var applicationContext: Int

    public init(message: Int = 65_536, userInfo: Int = 65_536, applicationContext: Int = 262_144) {
        self.message = message
        self.userInfo = userInfo
        self.applicationContext = applicationContext
    }

    /// Throws 7009 when the message body is over the message limit.
    public func check(_ body: MessageBody) throws(WCFailure) {
        let size: Int
        switch body {
        case .dictionary(let dictionary):
            try Self.checkNesting(.dictionary(dictionary), channel: "message")
            size = PlistCodec.encodedSize(dictionary)
        case .data(let data): size = data.count
        }
        try Self.check(size: size, limit: message, channel: "message")
    }

    /// Throws 7009 when a userInfo payload is over its limit.
    public func checkUserInfo(_ payload: PlistDictionary) throws(WCFailure) {
        _ = try encodeUserInfo(payload)
    }

    /// Encodes a userInfo payload once, where it enters, and checks it: 7008 when nested too deep, 7009
    /// when its encoding (tag included) is over the limit. The store keeps, and the frame carries, these bytes.
    public func encodeUserInfo(_ payload: PlistDictionary) throws(WCFailure) -> EncodedDictionary {
        try Self.encode(payload, limit: userInfo, channel: "userInfo")
    }

    /// Throws 7009 when an application context is over its limit.
    public func checkContext(_ payload: PlistDictionary) throws(WCFailure) {
        _ = try encodeContext(payload)
    }

    /// Encodes an application context once, where it enters, and checks it as ``encodeUserInfo(_:)`` does.
    public func encodeContext(_ payload: PlistDictionary) throws(WCFailure) -> EncodedDictionary {
        try Self.encode(payload, limit: applicationContext, channel: "applicationContext")
    }

    private static func encode(_ payload: PlistDictionary, limit: Int, channel: String) throws(WCFailure) -> EncodedDictionary {
        let encoded: EncodedDictionary
        do {
            encoded = try EncodedDictionary(payload)
        } catch {
            // Only nesting makes encoding fail; measure it for the message.
            try checkNesting(.dictionary(payload), channel: channel)
            preconditionFailure("a payload within the nesting limit failed to encode: \(error)")
        }
        try check(size: encoded.byteCount, limit: limit, channel: channel)
        return encoded
    }

    /// Throws 7008 when containers nest deeper than the wire allows (64).
    public static func checkNesting(_ value: PlistValue, channel: String) throws(WCFailure) {
        let depth = PlistCodec.nestingDepth(of: value)
        guard depth <= PlistCodec.maxNestingDepth else {
            throw WCFailure(.invalidParameter, "\(channel) payload nests \(depth) containers deep; at most \(PlistCodec.maxNestingDepth) are allowed")
        }
    }

    private static func check(size: Int, limit: Int, channel: String) throws(WCFailure) {
        guard size <= limit else {
            throw WCFailure(.payloadTooLarge, "\(channel) payload is \(size) bytes; the limit is \(limit)")
        }
    }
}
