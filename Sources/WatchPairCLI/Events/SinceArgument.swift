import ArgumentParser
import WatchPairWire

/// The `--since T` of `events` and `timeline`: an ISO 8601 time (`2026-11-23T22:41:07Z`, any fraction,
/// `Z` or an offset), or an age: a whole number with `s`, `m`, `h` or `d` (`90s`, `15m`, `2h`, `1d`).
enum SinceArgument {
    /// Microseconds since 1970 for `text`, ages counted back from `now` (microseconds since 1970).
    /// - Throws: `.usage` naming the accepted forms.
    static func parse(_ text: String, now: Int64) throws(CLIError) -> Int64 {
        if let time = EventTimestamp.parse(text) { return time }
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        if let unit = text.last, let seconds = units[unit], let count = Int64(text.dropLast()), count >= 0,
            count <= 100 * 365 * 86_400 / seconds
        {
            return now - count * seconds * 1_000_000
        }
        throw .usage(
            "--since '\(text)' is neither an ISO 8601 time (2026-11-23T22:41:07Z) nor an age (90s, 15m, 2h, 1d)")
    }

    /// `text` if it parses, for ArgumentParser's `validate()` (a usage error in its format, exit 2).
    static func validated(_ text: String) throws -> String {
        do {
            _ = try parse(text, now: 0)
            return text
        } catch {
            throw ValidationError(error.message)
        }
    }
}
