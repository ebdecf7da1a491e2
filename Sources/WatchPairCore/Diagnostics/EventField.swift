/// One `WC_*` field of a journal event that its vocabulary adds to the engine's own (``DiagnosticEvent``'s
/// stored fields): a name and a string or integer value.
///
/// The sinks write it as `WC_<NAME>=<text>` in the journal, `<key>=<text>` on stderr and `"<key>": value`
/// in `wcctl events --json` and the history file, after the engine's fields.
public struct EventField: Sendable, Hashable {
    /// The field's name.
    public var name: Name
    /// The field's value.
    public var value: Value

    /// The field `name` with `value`.
    public init(_ name: Name, _ value: Value) {
        self.name = name
        self.value = value
    }

    /// A field's name in its two spellings: the JSON key (`requestType`) and the journal field without
    /// its `WC_` prefix (`REQUEST_TYPE`), the key's words in capitals joined by `_`.
    public struct Name: Sendable, Hashable, CustomStringConvertible {
        /// The key in `wcctl events --json`, the history file and stderr lines.
        public let key: String
        /// The journal field's name after `WC_`.
        public let journal: String

        /// The field whose JSON key is `key`, a lowerCamelCase word such as `requestType`.
        public init(_ key: String) {
            self.key = key
            var journal = ""
            for character in key {
                if character.isUppercase, !journal.isEmpty { journal.append("_") }
                journal += character.uppercased()
            }
            self.journal = journal
        }

        /// `WC_` and ``journal``.
        public var description: String { "WC_" + journal }
    }

    /// A field's value: JSON writes an integer as a number, everything else as a string.
    public enum Value: Sendable, Hashable {
        /// Text.
        case string(String)
        /// A whole number.
        case integer(Int64)

        /// The value as the journal and stderr write it.
        public var text: String {
            switch self {
            case .string(let text): text
            case .integer(let number): String(number)
            }
        }
    }
}
