import WatchPairWire

extension OutputFormatter {
    /// `wcctl watches` for people: a table (NAME, ACTIVE, PAIRED, INSTALLED, REACHABLE, QUEUED) and the
    /// session's state.
    public static func watchesLines(_ result: JSONValue) -> [String] {
        func yes(_ row: JSONValue, _ key: String) -> String { row[field: key] == .bool(true) ? "yes" : "no" }
        func count(_ queued: JSONValue?, _ key: String) -> String { queued?[field: key].map(humanValue) ?? "0" }
        var rows = [["NAME", "ACTIVE", "PAIRED", "INSTALLED", "REACHABLE", "QUEUED"]]
        for row in result[field: "watches"]?.arrayElements ?? [] {
            let queued = row[field: "queued"]
            rows.append([
                row[field: "name"].map(humanValue) ?? "?", row[field: "active"] == .bool(true) ? "*" : "",
                yes(row, "paired"), yes(row, "installed"), yes(row, "reachable"),
                "\(count(queued, "userInfo")) userInfo, \(count(queued, "files")) files, \(count(queued, "context")) context",
            ])
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines = rows.map { row in
            row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingTrailingSpaces()
        }
        lines.append("session: \(result[field: "session"].map(humanValue) ?? "unknown")")
        return lines
    }
}

extension String {
    /// Without trailing spaces (a table's last column is not padded).
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
