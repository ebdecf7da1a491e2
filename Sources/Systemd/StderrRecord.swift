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
        let plain = !text.isEmpty && !text.contains { $0.isWhitespace || $0 == "\"" || $0 == "=" || $0 == "\\" }
        return plain ? text : "\"" + escape(text, quote: true) + "\""
    }

    private static func escape(_ text: String, quote: Bool) -> String {
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
