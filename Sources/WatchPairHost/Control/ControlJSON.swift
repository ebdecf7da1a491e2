import Foundation
import WatchPairWire

/// Conversions between control-socket JSON and the engine's values.
public enum ControlJSON {
    /// A dictionary payload from a request field (`message`, `userInfo`, `context`).
    /// - Throws: 7010 for `null` inside, 7008 for a bad `$data`/`$date` or a non-dictionary.
    public static func dictionary(_ json: JSONValue, field: String) throws(WCFailure) -> PlistDictionary {
        guard case .dictionary(let dictionary) = try PlistValue(json: json) else {
            throw WCFailure(.invalidParameter, "\"\(field)\" must be a dictionary, not a single $data, $date or $double value.")
        }
        return dictionary
    }

    /// A dictionary as JSON.
    public static func json(_ dictionary: PlistDictionary) -> JSONValue {
        PlistValue.dictionary(dictionary).json
    }

    /// An ISO 8601 UTC timestamp with milliseconds, the same text `{"$date": …}` uses.
    public static func timestamp(_ date: Date) -> JSONValue {
        if case .object(let object) = PlistValue.date(date).json, let text = object["$date"] {
            return text
        }
        return .double(date.timeIntervalSince1970)
    }

    /// A non-negative counter as a JSON integer (clamped; counters never reach 2⁶³).
    public static func integer(_ value: UInt64) -> JSONValue {
        .integer(Int64(clamping: value))
    }
}
