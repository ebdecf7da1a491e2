import Foundation

/// ``PlistValue/json``'s canonical text written straight into bytes, without the `JSONValue` tree.
///
/// Message and userInfo payloads go to `receive --follow` clients on every delivery; building the tree
/// only to write it out again was a large part of the control socket's cost (BENCHMARKS.md, "Changes that
/// mattered": issue 10's sixth round). The conventions (`$data`, `$date`, `$double`, `$dict`) are
/// ``PlistValue/json``'s; `PlistJSONTextTests` holds the bytes equal to `json.canonicalUTF8`.
extension PlistValue {
    /// Appends the canonical JSON text of ``json``.
    public func writeJSON(into out: inout [UInt8]) {
        switch self {
        case .string(let s): JSONWriter.write(string: s, into: &out)
        case .integer(let i): out.append(contentsOf: String(i).utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .double(let d):
            if d.isFinite {
                out.append(contentsOf: d.description.utf8)
            } else {
                Self.writeReserved("$double", into: &out) { JSONWriter.write(string: Self.nonFiniteName(d), into: &$0) }
            }
        case .date(let date):
            Self.writeReserved("$date", into: &out) { Self.writeDateText(date, into: &$0) }
        case .data(let d):
            Self.writeReserved("$data", into: &out) { JSONWriter.write(string: d.base64EncodedString(), into: &$0) }
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (n, element) in a.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                element.writeJSON(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .dictionary(let d):
            Self.writeJSON(dictionary: d, into: &out)
        }
    }

    /// Appends the canonical JSON text of a dictionary (``json`` of `.dictionary(dictionary)`).
    public static func writeJSON(dictionary: PlistDictionary, into out: inout [UInt8]) {
        if dictionary.count == 1, let key = dictionary.keys.first, reservedJSONKeys.contains(key) {
            writeReserved("$dict", into: &out) { writeMembers(dictionary, into: &$0) }
        } else {
            writeMembers(dictionary, into: &out)
        }
    }

    /// The value of a date's `$date` member: ISO 8601 text, or seconds since 2001 outside years
    /// 0000–9999 (and where the text would need more than 64 fraction digits), or the name of a
    /// non-finite value.
    public static func writeDateText(_ date: Date, into out: inout [UInt8]) {
        let t = date.timeIntervalSinceReferenceDate
        if let text = ISO8601Timestamp.format(t) {
            JSONWriter.write(string: text, into: &out)
        } else if t.isFinite {
            out.append(contentsOf: t.description.utf8)
        } else {
            JSONWriter.write(string: nonFiniteName(t), into: &out)
        }
    }

    private static func writeMembers(_ dictionary: PlistDictionary, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        let sorted = dictionary.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        for (n, (key, element)) in sorted.enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.write(string: key, into: &out)
            out.append(UInt8(ascii: ":"))
            element.writeJSON(into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `{"key":…}`, the one-member object of a reserved key.
    private static func writeReserved(_ key: String, into out: inout [UInt8], value: (inout [UInt8]) -> Void) {
        out.append(UInt8(ascii: "{"))
        JSONWriter.write(string: key, into: &out)
        out.append(UInt8(ascii: ":"))
        value(&out)
        out.append(UInt8(ascii: "}"))
    }
}
