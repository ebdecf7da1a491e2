import WatchPairWire

/// One line from a daemon's control socket, read with a cheap scanner instead of a full JSON parse.
///
/// The hot loops read tens of thousands of lines per second on a machine whose two cores also run both
/// daemons, so the client must cost as little as possible. The daemons write compact JSON; the scanner
/// finds a key by its exact `"key":` spelling. That is unambiguous here because wcbench chooses every
/// payload (its keys are `n` and `p`), and a quote inside a JSON string is always escaped. Lines that
/// need more than a few fields go through ``json()``, the real parser.
struct ControlLine {
    /// The raw line, without the newline.
    let bytes: [UInt8]

    /// The request id the line answers, or nil (`"id":null` or absent).
    var id: Int64? { integer("id") }

    /// `ok` of a response; nil for a stream event.
    var ok: Bool? {
        guard let at = valueStart(of: "ok") else { return nil }
        switch bytes[at] {
        case UInt8(ascii: "t"): return true
        case UInt8(ascii: "f"): return false
        default: return nil
        }
    }

    /// The `event` kind of a stream event (`userInfo`, `message`, ...), nil for a response.
    var event: String? { string("event") }

    /// The WCError code of a failed response.
    var errorCode: Int64? { ok == false ? integer("code") : nil }

    /// The first integer value of `key` anywhere in the line.
    func integer(_ key: String) -> Int64? {
        guard var at = valueStart(of: key) else { return nil }
        var negative = false
        if bytes[at] == UInt8(ascii: "-") {
            negative = true
            at += 1
        }
        var value: Int64 = 0
        var digits = 0
        while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") {
            value = value &* 10 &+ Int64(bytes[at] - UInt8(ascii: "0"))
            at += 1
            digits += 1
        }
        guard digits > 0 else { return nil }
        return negative ? -value : value
    }

    /// The first string value of `key` (without unescaping; used for plain words).
    func string(_ key: String) -> String? {
        guard let at = valueStart(of: key), bytes[at] == UInt8(ascii: "\"") else { return nil }
        var end = at + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += 1 }
        return String(decoding: bytes[(at + 1)..<end], as: UTF8.self)
    }

    /// The whole line, parsed.
    func json() throws(BenchError) -> JSONValue {
        do {
            return try JSONValue.parse(String(decoding: bytes, as: UTF8.self))
        } catch {
            throw BenchError("the daemon sent a line that is not JSON (\(error.message)): \(text)")
        }
    }

    /// The line as text (for error messages), cut at 300 bytes.
    var text: String { String(decoding: bytes.prefix(300), as: UTF8.self) }

    /// The error message of a failed response, for reports.
    var errorDescription: String {
        guard ok == false else { return "not an error" }
        if case .object(let o)? = try? json(), case .object(let e)? = o["error"] {
            let code = e["code"].map { "\($0.canonicalText)" } ?? "?"
            let message = if case .string(let m)? = e["message"] { m } else { "" }
            return "error \(code): \(message)"
        }
        return text
    }

    /// Index of the first byte of `key`'s value, after `"key":` and any spaces.
    private func valueStart(of key: String) -> Int? {
        let pattern = Array("\"\(key)\":".utf8)
        let count = bytes.count
        guard count >= pattern.count else { return nil }
        var index = 0
        let first = pattern[0]
        outer: while index <= count - pattern.count {
            if bytes[index] != first {
                index += 1
                continue
            }
            for offset in 1..<pattern.count where bytes[index + offset] != pattern[offset] {
                index += 1
                continue outer
            }
            var at = index + pattern.count
            while at < count, bytes[at] == UInt8(ascii: " ") { at += 1 }
            return at < count ? at : nil
        }
        return nil
    }
}
