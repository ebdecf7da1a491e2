/// JSON text ⇄ property-list dictionaries, for payloads given on the command line or the control socket.
///
/// Uses the conventions of `PlistValue.init(json:)` (`$data`, `$date`, `$double`, `$dict`).
public enum PlistJSON {
    /// Parses a JSON text that must be an object into a dictionary.
    ///
    /// - Throws: `WCFailure(.invalidParameter, …)` for text that is not JSON, is not an object, or is a
    ///   `$data`/`$date`/`$double` object rather than a dictionary; `WCFailure(.payloadUnsupportedTypes, …)`
    ///   for a `null` anywhere; the errors of `PlistValue.init(json:)`.
    public static func dictionary(fromJSONText text: String) throws(WCFailure) -> PlistDictionary {
        try dictionary(fromJSON: JSONValue.parse(text), name: "The payload")
    }

    /// A JSON value (a parsed argument, or a control request's `message`, `userInfo` or `context`) that
    /// must be a dictionary; `name` names it in the errors, which are those of ``dictionary(fromJSONText:)``.
    public static func dictionary(fromJSON json: JSONValue, name: String) throws(WCFailure) -> PlistDictionary {
        guard case .object = json else {
            throw WCFailure(.invalidParameter, "\(name) must be a JSON object.")
        }
        guard case .dictionary(let dictionary) = try PlistValue(json: json) else {
            throw WCFailure(.invalidParameter, "\(name) must be a dictionary, not a single $data, $date or $double value.")
        }
        return dictionary
    }

    /// A message reply (`answer`'s `reply`, `receive`'s `autoReply`, `wcctl receive --reply`): a
    /// dictionary, or `{"$data": "<base64>"}` for data messages. Returns `.dictionary` or `.data`.
    ///
    /// - Throws: `WCFailure(.invalidParameter, …)` naming `name` for anything else;
    ///   `WCFailure(.payloadUnsupportedTypes, …)` for a `null` anywhere.
    public static func reply(fromJSON json: JSONValue, name: String) throws(WCFailure) -> PlistValue {
        try reply(PlistValue(json: json), name: name)
    }

    /// `value` when it can be a message reply (a dictionary or data); else 7008 naming `name`. The check
    /// of ``reply(fromJSON:name:)``, for a value already read (a control request's field).
    public static func reply(_ value: PlistValue, name: String) throws(WCFailure) -> PlistValue {
        switch value {
        case .dictionary, .data: return value
        default: throw WCFailure(.invalidParameter, "\(name) must be a JSON object, or {\"$data\": \"<base64>\"} for data messages.")
        }
    }

    /// Compact canonical JSON text (keys sorted by their UTF-8 bytes) of a dictionary.
    public static func text(of dictionary: PlistDictionary) -> String {
        PlistValue.dictionary(dictionary).json.canonicalText
    }
}
