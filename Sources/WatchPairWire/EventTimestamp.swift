import Foundation

/// The timestamp of a diagnostic event: UTC, always six fractional digits
/// (`2026-11-23T22:41:07.123456Z`), so every line of every app has the same width and text order is
/// time order. Microseconds since 1970 are the value the tools compare and merge by.
public enum EventTimestamp {
    /// Microseconds since 1970-01-01 of `date`, rounded to the nearest (so a parsed timestamp formats back
    /// to the same text).
    public static func microseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }

    /// The text for `microseconds` since 1970-01-01 (years 0000–9999; others are clamped to that range).
    public static func format(microseconds: Int64) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(27)
        append(microseconds: microseconds, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends ``format(microseconds:)``'s text to `out`, its digits written in place: every event writes
    /// its timestamp into two lines (history file, stderr), and a string per field, joined, was a fifth of
    /// the event lines' CPU.
    public static func append(microseconds: Int64, to out: inout [UInt8]) {
        let limit = (ISO8601Timestamp.endSeconds + ISO8601Timestamp.referenceUnixOffset) * 1_000_000 - 1
        let lower = (ISO8601Timestamp.minSeconds + ISO8601Timestamp.referenceUnixOffset) * 1_000_000
        let value = min(max(microseconds, lower), limit)
        let unix = ISO8601Timestamp.floorDivide(value, 1_000_000)
        ISO8601Timestamp.appendDateTime(unixSeconds: unix, to: &out)
        out.append(UInt8(ascii: "."))
        ISO8601Timestamp.appendDigits(value - unix * 1_000_000, width: 6, to: &out)
        out.append(UInt8(ascii: "Z"))
    }

    /// Appends ``format(_:)``'s text for `date` to `out`.
    public static func append(_ date: Date, to out: inout [UInt8]) {
        append(microseconds: microseconds(date), to: &out)
    }

    /// The text for `date`.
    public static func format(_ date: Date) -> String {
        format(microseconds: microseconds(date))
    }

    /// Microseconds since 1970-01-01 for an ISO 8601 timestamp (`YYYY-MM-DDTHH:MM:SS[.f…]` with `Z` or an
    /// offset; any number of fractional digits), or nil when `text` is not one.
    public static func parse(_ text: String) -> Int64? {
        guard let sinceReference = ISO8601Timestamp.parse(text) else { return nil }
        let seconds = sinceReference + Double(ISO8601Timestamp.referenceUnixOffset)
        return Int64((seconds * 1_000_000).rounded())
    }
}
