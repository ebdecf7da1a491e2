import Foundation
import WatchPairWire

/// The checks several operations share, in the words docs/ControlProtocol.md documents.
extension ControlFieldReader {
    /// A reply timeout: seconds in (0, 86400].
    mutating func timeout() throws(WCFailure) -> Double? {
        guard let seconds = try number() else { return nil }
        guard seconds.isFinite, seconds > 0, seconds <= 86_400 else { throw wrong("a number of seconds in (0, 86400]") }
        return seconds
    }

    /// A delay: seconds in [0, 86400].
    mutating func delay() throws(WCFailure) -> Double? {
        guard let seconds = try number() else { return nil }
        guard seconds.isFinite, seconds >= 0, seconds <= 86_400 else { throw wrong("a number of seconds in [0, 86400]") }
        return seconds
    }

    /// A transfer id.
    mutating func transferId() throws(WCFailure) -> UUID? {
        guard let text = try string() else { return nil }
        guard let id = UUID(uuidString: text) else { throw wrong("a transfer id (UUID)") }
        return id
    }

    /// A list of transfer ids.
    mutating func transferIds() throws(WCFailure) -> [UUID]? {
        guard let texts = try strings() else { return nil }
        var ids: [UUID] = []
        for text in texts {
            guard let id = UUID(uuidString: text) else { throw wrong("a transfer id (UUID)") }
            ids.append(id)
        }
        return ids
    }

    /// A WCError code (7001…7018).
    mutating func errorCode() throws(WCFailure) -> WCErrorCode? {
        guard let code = try integer() else { return nil }
        guard let known = Int(exactly: code).flatMap(WCErrorCode.init(rawValue:)) else { throw wrong("a WCError code (7001…7018)") }
        return known
    }

    /// A non-empty string.
    mutating func name() throws(WCFailure) -> String? {
        guard let text = try string() else { return nil }
        guard !text.isEmpty else { throw wrong("a non-empty string") }
        return text
    }

    /// One of an enum's cases by name, or 7008 listing them.
    mutating func option<T: RawRepresentable & CaseIterable>(_: T.Type) throws(WCFailure) -> T? where T.RawValue == String {
        try option(T.init(rawValue:), names: T.allCases.map(\.rawValue).joined(separator: ", "))
    }

    /// A named option that `parse` reads, or 7008 listing `names`.
    mutating func option<T>(_ parse: (String) -> T?, names: String) throws(WCFailure) -> T? {
        guard let text = try string() else { return nil }
        guard let value = parse(text) else { throw wrong("one of \(names), not '\(text)'") }
        return value
    }
}

/// 7008 with a sentence of the operation's own.
func refusal(_ sentence: String) -> WCFailure {
    WCFailure(.invalidParameter, sentence)
}
