import WatchPairWire

/// Pure formatting of results for people (default) and for scripts (`--json`).
///
/// `--json` output is one compact JSON object per line with keys sorted by their UTF-8 bytes
/// (`JSONValue.canonicalText`), so it is byte-for-byte stable for the same values.
public enum OutputFormatter {
    /// The `status` fields people read, in groups and in reading order (docs/ControlProtocol.md): this app,
    /// its peer, what is queued, the context versions.
    public static let statusGroups: [(title: String, keys: [String])] = [
        ("app", [
            "role", "pair", "activated", "launch", "installed", "pid", "controlClients", "complicationEnabled",
            "complicationTransfersRemaining",
        ]),
        ("peer", [
            "reachable", "link", "paired", "peerInstalled", "peerListening", "peerUnitFileState", "peerRunning",
            "peerLaunch", "peerComplicationEnabled",
        ]),
        ("queues", ["outstandingTransfers", "outstandingFiles", "receivingFile", "inboxPending", "messagesInFlight"]),
        ("context", ["contextSentVersion", "contextAckedVersion", "contextReceivedVersion"]),
    ]

    /// The store's counters (for wcbench, not for people): `wcctl status` shows them only with `--counters`.
    public static let statusCounterKeys = ["storeCommits", "storeReads", "diagnosticsDropped", "eventLinesDropped"]

    /// One JSON line (without the newline).
    public static func jsonLine(_ value: JSONValue) -> String { value.canonicalText }

    /// A value for people: strings bare, `null` as `none`, everything else as compact JSON.
    public static func humanValue(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): s
        case .null: "none"
        default: value.canonicalText
        }
    }

    /// `status` for people: a heading per group of ``statusGroups``, then its fields as indented
    /// `key: value` lines, values aligned across groups; fields of no group (a newer daemon's) under
    /// `other`, sorted; the ``statusCounterKeys`` last, under `counters`, only when `counters` is set.
    /// A group with none of its fields in `result` is left out.
    public static func statusLines(_ result: JSONValue, counters: Bool = false) -> [String] {
        guard case .object(let o) = result else { return [humanValue(result)] }
        let grouped = Set(statusGroups.flatMap(\.keys) + statusCounterKeys)
        let other = o.keys.filter { !grouped.contains($0) }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let groups = (statusGroups + [("other", other)] + (counters ? [("counters", statusCounterKeys)] : []))
            .map { (title: $0.title, keys: $0.keys.filter { o[$0] != nil }) }
            .filter { !$0.keys.isEmpty }
        let width = (groups.flatMap(\.keys).map(\.count).max() ?? 0) + 1
        return groups.flatMap { group in
            [group.title] + group.keys.map { key in
                let label = key + ":"
                return "  " + label + String(repeating: " ", count: width - label.count + 1) + humanValue(o[key]!)
            }
        }
    }

    /// Protocol handles that `wcctl` consumes itself and does not print (`receive` acknowledges and
    /// answers on the user's behalf).
    static let receiveHandleKeys: Set<String> = ["deliveryId", "token"]

    /// The line `receive` prints for one item: `{"channel": kind, …the event's data…}`.
    ///
    /// `deliveryId` and `token` are left out; a data message's base64 `data` becomes `{"$data": …}` like
    /// every other byte value. For example
    /// `{"channel":"userInfo","receivedAt":"…","seq":3,"transferId":"…","userInfo":{"n":1}}`.
    public static func receiveRecord(kind: String, data: JSONValue?) -> JSONValue {
        var record: [String: JSONValue] = [:]
        if case .object(let o)? = data {
            for (key, value) in o where !receiveHandleKeys.contains(key) { record[key] = value }
        } else if let data {
            record["data"] = data
        }
        if kind == "message", case .string(let base64)? = record["data"] {
            record["data"] = .object(["$data": .string(base64)])
        }
        record["channel"] = .string(kind)
        return .object(record)
    }

    /// One outstanding transfer for people: `<id>  seq <n>  <createdAt>  <userInfo>`.
    public static func transferLine(_ transfer: JSONValue) -> String {
        guard case .object(let o) = transfer else { return humanValue(transfer) }
        var parts: [String] = []
        if let id = o["transferId"] { parts.append(humanValue(id)) }
        if let seq = o["seq"] { parts.append("seq " + humanValue(seq)) }
        if let created = o["createdAt"] { parts.append(humanValue(created)) }
        if let userInfo = o["userInfo"] { parts.append(humanValue(userInfo)) }
        return parts.joined(separator: "  ")
    }

    /// `context set` for people: `version 4`, or `version 4 (unchanged: …)` when not re-sent.
    public static func contextSetLine(_ result: JSONValue) -> String {
        let version = result[field: "version"].map(humanValue) ?? "?"
        if result[field: "changed"] == .bool(false) {
            return "version \(version) (unchanged: identical to the last context sent, not re-sent)"
        }
        return "version \(version)"
    }

    /// `transfers cancel` for people.
    public static func cancelLine(transferId: String, cancelled: Bool) -> String {
        cancelled
            ? "cancelled \(transferId)"
            : "\(transferId) is not outstanding (already received, or cancelled before)"
    }
}

extension JSONValue {
    /// The value of `key` when this is an object.
    subscript(field key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    /// The elements when this is an array.
    var arrayElements: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The value when this is a non-negative integer (byte counts, offsets).
    var unsignedValue: UInt64? {
        integerValue.flatMap { UInt64(exactly: $0) }
    }
}
