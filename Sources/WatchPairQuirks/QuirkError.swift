/// A quirk setting that cannot be used, found where it is read (a command, a configuration key).
public enum QuirkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No quirk has this name.
    case unknownQuirk(String)
    /// A probability outside 0…1 (or not a number).
    case probabilityOutOfRange(Double)
    /// A count below 1: a quirk that may fire zero times is a quirk cleared.
    case countNotPositive(Int)
    /// A delay range that is negative or whose lower bound passes its upper bound.
    case invalidDelay(String)

    public var description: String {
        switch self {
        case .unknownQuirk(let name):
            "no quirk named '\(name)'; the quirks are: \(Quirk.allCases.map(\.rawValue).joined(separator: ", "))"
        case .probabilityOutOfRange(let value): "probability \(value) is outside 0...1"
        case .countNotPositive(let value): "count \(value) must be at least 1 (clear the quirk to turn it off)"
        case .invalidDelay(let text): "delay '\(text)' is not a duration range like 2s or 500ms...3s"
        }
    }
}
