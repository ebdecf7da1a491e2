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
        let json = try JSONValue.parse(text)
        guard case .object = json else {
            throw WCFailure(.invalidParameter, "The payload must be a JSON object.")
        }
        guard case .dictionary(let dictionary) = try PlistValue(json: json) else {
            throw WCFailure(.invalidParameter, "The payload must be a dictionary, not a single $data, $date or $double value.")
        }
        return dictionary
    }

    /// Compact canonical JSON text (keys sorted by their UTF-8 bytes) of a dictionary.
    public static func text(of dictionary: PlistDictionary) -> String {
        PlistValue.dictionary(dictionary).json.canonicalText
    }
}
