import Logging

/// Pure helpers for journald entries: field-name sanitising, priorities, metadata flattening and the
/// `KEY=value` payloads handed to `sd_journal_sendv`.
public enum JournalFields {
    /// journald's limit on a field name's length.
    public static let maxNameLength = 64

    /// Names never emitted: `UNIT=` and the other fields journalctl uses to attribute an entry to a unit
    /// (`journalctl -u`), which a service must not claim for itself.
    public static let forbiddenNames: Set<String> = [
        "UNIT", "USER_UNIT", "OBJECT_SYSTEMD_UNIT", "OBJECT_SYSTEMD_USER_UNIT", "COREDUMP_UNIT",
        "COREDUMP_USER_UNIT",
    ]

    /// The fields ``logEntry(level:message:identifier:metadata:file:function:line:)`` sets itself;
    /// metadata keys that sanitise to one of these are dropped rather than duplicated.
    public static let handlerFieldNames: Set<String> = [
        "MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER", "CODE_FILE", "CODE_LINE", "CODE_FUNC",
    ]

    /// Maps `name` to a valid journald field name, or `nil` when it cannot be one.
    ///
    /// ASCII letters are uppercased, digits and `_` kept, every other Unicode scalar becomes `_`, and the
    /// result is cut to ``maxNameLength``. `nil` when the result is empty, starts with `_` (journald's
    /// trusted fields, which clients cannot set) or a digit, or is one of ``forbiddenNames``.
    public static func sanitize(_ name: String) -> String? {
        var result = ""
        for scalar in name.unicodeScalars.prefix(Self.maxNameLength) {
            switch scalar {
            case "A"..."Z", "0"..."9", "_": result.unicodeScalars.append(scalar)
            case "a"..."z": result.unicodeScalars.append(Unicode.Scalar(scalar.value - 32)!)
            default: result.append("_")
            }
        }
        guard let first = result.first, first != "_", !first.isNumber,
            !Self.forbiddenNames.contains(result)
        else {
            return nil
        }
        return result
    }

    /// The syslog priority for `level`: trace/debug 7, info 6, notice 5, warning 4, error 3, critical 2.
    public static func priority(for level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// Flattens `metadata` into `(key, value)` pairs sorted by key.
    ///
    /// Nested dictionaries become dotted keys (`["peer": ["id": 1]]` → `("peer.id", "1")`); arrays and
    /// other values use their `description` (`[a, b]`).
    public static func flatten(_ metadata: Logger.Metadata) -> [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        func visit(_ metadata: Logger.Metadata, prefix: String) {
            for (key, value) in metadata {
                let path = prefix.isEmpty ? key : "\(prefix).\(key)"
                if case .dictionary(let nested) = value, !nested.isEmpty {
                    visit(nested, prefix: path)
                } else {
                    pairs.append((key: path, value: value.description))
                }
            }
        }
        visit(metadata, prefix: "")
        return pairs.sorted { $0.key < $1.key }
    }

    /// The fields of one log record: `MESSAGE`, `PRIORITY`, `SYSLOG_IDENTIFIER`, `CODE_FILE`,
    /// `CODE_LINE`, `CODE_FUNC`, then each flattened metadata key as a sanitised field.
    ///
    /// Metadata keys that do not sanitise, that collide with ``handlerFieldNames``, or that collide with an
    /// earlier metadata key after sanitising (`a.b` vs `a_b`; the first in key order wins) are dropped.
    public static func logEntry(
        level: Logger.Level,
        message: String,
        identifier: String,
        metadata: Logger.Metadata,
        file: String,
        function: String,
        line: UInt
    ) -> [(String, String)] {
        var fields: [(String, String)] = [
            ("MESSAGE", message),
            ("PRIORITY", String(Self.priority(for: level))),
            ("SYSLOG_IDENTIFIER", identifier),
            ("CODE_FILE", file),
            ("CODE_LINE", String(line)),
            ("CODE_FUNC", function),
        ]
        var used = Self.handlerFieldNames
        for (key, value) in Self.flatten(metadata) {
            guard let name = Self.sanitize(key), used.insert(name).inserted else { continue }
            fields.append((name, value))
        }
        return fields
    }

    /// The `KEY=value` payloads for `fields`, one per iovec, with every name passed through
    /// ``sanitize(_:)``; fields whose name does not sanitise are dropped. Values are kept byte for byte
    /// (newlines included: `sd_journal_sendv` encodes them).
    public static func payloads(_ fields: [(String, String)]) -> [String] {
        fields.compactMap { name, value in
            Self.sanitize(name).map { "\($0)=\(value)" }
        }
    }
}
