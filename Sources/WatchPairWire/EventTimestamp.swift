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
        let limit = (ISO8601Timestamp.endSeconds + ISO8601Timestamp.referenceUnixOffset) * 1_000_000 - 1
        let lower = (ISO8601Timestamp.minSeconds + ISO8601Timestamp.referenceUnixOffset) * 1_000_000
        let value = min(max(microseconds, lower), limit)
        let unix = ISO8601Timestamp.floorDivide(value, 1_000_000)
        let fraction = value - unix * 1_000_000
        let days = ISO8601Timestamp.floorDivide(unix, 86_400)
        let secondOfDay = unix - days * 86_400
        let (y, m, d) = ISO8601Timestamp.civilFromDays(days)
        let pad = ISO8601Timestamp.pad
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "T" + pad(secondOfDay / 3600, 2) + ":"
            + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2) + "." + pad(fraction, 6) + "Z"
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
