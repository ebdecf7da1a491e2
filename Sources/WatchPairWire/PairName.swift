/// The name of one of several independent pairs on a host (`phoned@NAME`, `watchd@NAME`), validated.
///
/// A name becomes a path component (`/run/watchpair/NAME/`, `/var/lib/watchpair/NAME/`,
/// `/etc/watchpair/NAME/`), a systemd instance (`phoned@NAME.service`) and the handshake's pair id, so it
/// is kept to what is safe in all three: 1 to 64 ASCII letters, digits, `_` and `-`, starting with a letter
/// or a digit (no `.`, `/`, `\` or `@`; systemd's `%i` leaves such a name as it is). `default` is
/// reserved: it is what the pair without a name (`phoned.service`, `/run/watchpair/phoned.ctl`) calls
/// itself in the journal (`WC_PAIR=default`) and in handshakes.
public struct PairName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The validated name.
    public let rawValue: String

    /// What the unnamed, default pair calls itself (`WC_PAIR`, the handshake's pair id).
    public static let defaultPairName = "default"
    /// Most characters in a name: `/run/watchpair/NAME/phoned.sock` stays far below `sun_path`'s 108 bytes.
    public static let maximumLength = 64

    /// Validates `text` as a pair name.
    /// - Throws: ``PairNameError`` saying what is wrong with it.
    public init(validating text: String) throws(PairNameError) {
        if let problem = Self.problem(with: text) { throw problem }
        rawValue = text
    }

    /// Why `text` is not a usable pair name, or nil when it is one. Pure.
    public static func problem(with text: String) -> PairNameError? {
        guard !text.isEmpty else { return .empty }
        guard text.utf8.count <= maximumLength else { return .tooLong(text) }
        guard text != defaultPairName else { return .reserved }
        for (index, byte) in text.utf8.enumerated() {
            let letterOrDigit = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            if letterOrDigit { continue }
            if index > 0, byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") { continue }
            return index == 0 && (byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")) ? .badStart(text) : .badCharacter(text)
        }
        return nil
    }

    /// `<daemon>@<name>.<kind>`, the template unit's instance, e.g. `phoned@ci-3.socket`.
    public func unit(of role: Role, kind: UnitKind) -> String {
        "\(role.daemonName)@\(rawValue).\(kind.rawValue)"
    }

    /// The unit of `role` of `pair`: the template's instance for a named pair, `phoned.service` (today's
    /// names) for the default pair (nil).
    public static func unit(of role: Role, kind: UnitKind, pair: PairName?) -> String {
        pair?.unit(of: role, kind: kind) ?? "\(role.daemonName).\(kind.rawValue)"
    }

    /// `pair`'s name in the journal (`WC_PAIR`) and in handshakes: the name, or `default`.
    public static func label(of pair: PairName?) -> String {
        pair?.rawValue ?? defaultPairName
    }

    /// `base` for the default pair (nil), `base/NAME` for a named one: where a pair's sockets, state or
    /// configuration live under the host's directory for them.
    public static func directory(_ base: String, pair: PairName?) -> String {
        guard let pair else { return base }
        return (base.hasSuffix("/") ? base : base + "/") + pair.rawValue
    }

    /// The name.
    public var description: String { rawValue }

    /// By name.
    public static func < (lhs: PairName, rhs: PairName) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The two units of an app.
    public enum UnitKind: String, Sendable, Hashable, CaseIterable {
        /// The peer-link listener (`phoned@NAME.socket`).
        case socket
        /// The app (`phoned@NAME.service`).
        case service
    }
}

/// Why a text is not a pair name (``PairName/init(validating:)``).
public enum PairNameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name is empty.
    case empty
    /// The name is longer than ``PairName/maximumLength`` bytes.
    case tooLong(String)
    /// `default`, the name of the pair without a name.
    case reserved
    /// The name starts with `-` or `_`.
    case badStart(String)
    /// The name holds a character other than an ASCII letter, digit, `-` or `_`.
    case badCharacter(String)

    /// One sentence, e.g. `pair name "a/b" may hold only ASCII letters, digits, - and _`.
    public var description: String {
        switch self {
        case .empty:
            "a pair name must not be empty"
        case .tooLong(let text):
            "pair name \"\(text.prefix(20))…\" is \(text.utf8.count) bytes long; at most \(PairName.maximumLength)"
        case .reserved:
            "\"default\" names the pair without a name (phoned.service, watchd.service): leave out the pair name for it"
        case .badStart(let text):
            "pair name \"\(text)\" must start with an ASCII letter or digit"
        case .badCharacter(let text):
            "pair name \"\(text)\" may hold only ASCII letters, digits, - and _ (it becomes a path and a unit name)"
        }
    }
}
