import WatchPairWire

extension SessionEvent {
    /// The line `wcctl events` prints for people: timestamp, app, event, sentence, then the fields
    /// that apply, aligned so both apps' lines read as one column:
    /// `2026-11-23T22:41:07.123456Z watch userInfoDelivered   userInfo 3 received  seq=3 transfer=6F96…`.
    public var textLine: String {
        var fields: [String] = []
        if let seq { fields.append("seq=\(seq)") }
        if let errorCode { fields.append("error=\(errorCode)") }
        if let durationUs { fields.append("took=\(Self.duration(durationUs))") }
        if let transferId { fields.append("transfer=\(transferId)") }
        let head = "\(EventTimestamp.format(microseconds: time)) \(role.rawValue) \(Self.padded(kind, 20)) \(message)"
        return fields.isEmpty ? head : head + "  " + fields.joined(separator: " ")
    }

    /// `1.234 ms`, `12 ms`, `1.5 s`: short and readable.
    static func duration(_ microseconds: Int64) -> String {
        if microseconds < 1000 { return "\(microseconds) µs" }
        if microseconds < 10_000 { return "\(Double(microseconds / 10) / 100) ms" }
        if microseconds < 1_000_000 { return "\(microseconds / 1000) ms" }
        return "\(Double(microseconds / 10_000) / 100) s"
    }

    private static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
