import Foundation
import WatchPairWire

/// Conversions from the engine's values to control-socket JSON (payloads from requests are read with
/// `PlistJSON`, shared with `wcctl`).
public enum ControlJSON {
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
