/// The one-line text form of a log record or event when there is no journal:
/// `<identifier>[<pid>]: <LEVEL or event> <message> key=value …`.
///
/// Every record stays on one line (newlines are escaped) and values with spaces, quotes, `=` or
/// backslashes are double-quoted, so the lines can be split and parsed back.
public enum StderrRecord {
    /// The message part: backslashes and line breaks escaped, not quoted.
    public static func message(_ text: String) -> String {
        escape(text, quote: false)
    }

    /// A `key=value` value: as is when plain, else double-quoted with escapes. Empty values are quoted.
    public static func value(_ text: String) -> String {
        isPlain(text) ? text : "\"" + escape(text, quote: true) + "\""
    }

    private static func isPlain(_ text: String) -> Bool {
        guard !text.isEmpty else { return false }
        // Fast path over bytes (every event has several values: ids, seqs, names); only text with
        // non-ASCII bytes needs the Character scan for Unicode whitespace.
        var ascii = true
        for byte in text.utf8 {
            switch byte {
            case 0x09...0x0D, 0x20, UInt8(ascii: "\""), UInt8(ascii: "="), UInt8(ascii: "\\"): return false
            case 0x80...: ascii = false
            default: continue
            }
        }
        return ascii || !text.contains { $0.isWhitespace }
    }

    private static func escape(_ text: String, quote: Bool) -> String {
        // Most messages have nothing to escape: return them without rebuilding them scalar by scalar.
        let needsEscape = text.utf8.contains { byte in
            byte == UInt8(ascii: "\\") || byte == 0x0A || byte == 0x0D || (quote && byte == UInt8(ascii: "\""))
        }
        guard needsEscape else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\"" where quote: result += "\\\""
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
