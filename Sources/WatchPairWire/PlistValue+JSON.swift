import Foundation

/// Conversion between property-list values and JSON (docs/WireFormat.md, "JSON form of property lists").
///
/// JSON lacks three plist types; they are written as objects with exactly one reserved key:
/// - `{"$data": "<base64>"}`: `.data`.
/// - `{"$date": "<ISO 8601>"}`: `.date`. Written in UTC with at least millisecond digits and as many as
///   needed to round-trip the `Date` exactly (at most 64). Also accepted: a JSON number of seconds since
///   2001-01-01 (written for dates outside years 0000–9999, and for the dates within 1e-48 s of
///   2001-01-01 that need more than 64 digits), and `"NaN"`, `"Infinity"`, `"-Infinity"`.
/// - `{"$double": "NaN" | "Infinity" | "-Infinity"}`: a non-finite `.double`, which JSON numbers cannot hold.
///
/// A dictionary that itself has exactly one key and that key is reserved (`$data`, `$date`, `$double`,
/// `$dict`) is written as `{"$dict": {…}}`, so every plist value round-trips. An object with a reserved
/// key and other keys is an ordinary dictionary.
extension PlistValue {
    /// The reserved keys of the JSON conventions.
    static let reservedJSONKeys: Set<String> = ["$data", "$date", "$double", "$dict"]

    /// Converts JSON to a property-list value with the conventions above.
    ///
    /// - Throws: `WCFailure(.payloadUnsupportedTypes, …)` for a `null`; `WCFailure(.invalidParameter, …)`
    ///   for bad base64, a bad date, a bad `$double`/`$dict`, or nesting deeper than
    ///   `PlistCodec.maxNestingDepth`. The message names the path, e.g. `at .items[2]`.
    public init(json: JSONValue) throws(WCFailure) {
        self = try Self.convert(json, path: "", depth: 0)
    }

    /// The JSON form, with the conventions above.
    public var json: JSONValue {
        switch self {
        case .string(let s): return .string(s)
        case .integer(let i): return .integer(i)
        case .bool(let b): return .bool(b)
        case .double(let d):
            return d.isFinite ? .double(d) : .object(["$double": .string(Self.nonFiniteName(d))])
        case .date(let date):
            let t = date.timeIntervalSinceReferenceDate
            if let text = ISO8601Timestamp.format(t) { return .object(["$date": .string(text)]) }
            return .object(["$date": t.isFinite ? .double(t) : .string(Self.nonFiniteName(t))])
        case .data(let d):
            return .object(["$data": .string(d.base64EncodedString())])
        case .array(let a):
            return .array(a.map(\.json))
        case .dictionary(let d):
            let object = JSONValue.object(d.mapValues(\.json))
            if d.count == 1, let key = d.keys.first, Self.reservedJSONKeys.contains(key) {
                return .object(["$dict": object])
            }
            return object
        }
    }

    static func nonFiniteName(_ d: Double) -> String {
        d.isNaN ? "NaN" : (d < 0 ? "-Infinity" : "Infinity")
    }

    private static func nonFinite(_ name: String) -> Double? {
        switch name {
        case "NaN": .nan
        case "Infinity": .infinity
        case "-Infinity": -.infinity
        default: nil
        }
    }

    private static func convert(_ json: JSONValue, path: String, depth: Int) throws(WCFailure) -> PlistValue {
        func at() -> String { "at " + (path.isEmpty ? "." : path) }
        switch json {
        case .null:
            throw WCFailure(.payloadUnsupportedTypes, "null is not a property-list value (\(at())).")
        case .bool(let b): return .bool(b)
        case .integer(let i): return .integer(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .array(let a):
            guard depth < PlistCodec.maxNestingDepth else { throw tooDeep(at()) }
            var result: [PlistValue] = []
            result.reserveCapacity(a.count)
            for (n, element) in a.enumerated() {
                result.append(try convert(element, path: path + "[\(n)]", depth: depth + 1))
            }
            return .array(result)
        case .object(let o):
            if o.count == 1, let (key, value) = o.first, reservedJSONKeys.contains(key) {
                return try convertReserved(key: key, value: value, path: path, depth: depth)
            }
            return .dictionary(try convertEntries(o, path: path, depth: depth))
        }
    }

    private static func convertEntries(
        _ object: [String: JSONValue], path: String, depth: Int
    ) throws(WCFailure) -> PlistDictionary {
        guard depth < PlistCodec.maxNestingDepth else { throw tooDeep("at " + (path.isEmpty ? "." : path)) }
        var result: PlistDictionary = [:]
        result.reserveCapacity(object.count)
        for (key, element) in object {
            result[key] = try convert(element, path: path + pathComponent(key), depth: depth + 1)
        }
        return result
    }

    static func convertReserved(
        key: String, value: JSONValue, path: String, depth: Int
    ) throws(WCFailure) -> PlistValue {
        let at = "at " + path + pathComponent(key)
        switch (key, value) {
        case ("$data", .string(let text)):
            guard let data = Data(base64Encoded: text) else {
                throw WCFailure(.invalidParameter, "$data is not valid base64 (\(at)).")
            }
            return .data(data)
        case ("$date", .string(let text)):
            guard let t = ISO8601Timestamp.parse(text) ?? nonFinite(text) else {
                throw WCFailure(.invalidParameter, "$date is not an ISO 8601 date-time like 2024-05-01T12:00:00Z (\(at)).")
            }
            return .date(Date(timeIntervalSinceReferenceDate: t))
        case ("$date", .integer(let i)):
            return .date(Date(timeIntervalSinceReferenceDate: Double(i)))
        case ("$date", .double(let d)):
            return .date(Date(timeIntervalSinceReferenceDate: d))
        case ("$double", .string(let text)):
            guard let d = nonFinite(text) else {
                throw WCFailure(.invalidParameter, "$double must be \"NaN\", \"Infinity\" or \"-Infinity\" (\(at)).")
            }
            return .double(d)
        case ("$dict", .object(let inner)):
            return .dictionary(try convertEntries(inner, path: path + pathComponent(key), depth: depth))
        default:
            let expected = key == "$dict" ? "an object" : key == "$date" ? "a string or a number" : "a string"
            throw WCFailure(.invalidParameter, "\(key) must be \(expected) (\(at)).")
        }
    }

    static func tooDeep(_ at: String) -> WCFailure {
        WCFailure(.invalidParameter, "Containers are nested deeper than \(PlistCodec.maxNestingDepth) (\(at)).")
    }

    /// `.key` for plain keys, `["key"]` (JSON-escaped) for any other.
    static func pathComponent(_ key: String) -> String {
        let plain = !key.isEmpty && key.utf8.allSatisfy { b in
            (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_")
                || b == UInt8(ascii: "$") || b == UInt8(ascii: "-")
        }
        return plain ? "." + key : "[" + JSONValue.string(key).canonicalText + "]"
    }
}
