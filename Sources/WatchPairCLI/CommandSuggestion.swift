import ArgumentParser

/// "Did you mean …?" for a mistyped command word (`wcctl stauts` → `status`).
///
/// Pure: walks the arguments down the command tree the way ArgumentParser does (global options and
/// their values skipped), and when a word stands where a subcommand must, but names none, offers the
/// nearest subcommand within one or two edits of it, or the only one it begins.
enum CommandSuggestion {
    /// Root options that take a value as the next argument.
    static let optionsWithValue: Set<String> = ["--side", "--control"]

    /// The one-line usage error for `arguments`, or nil when no command word is mistyped.
    static func message(for arguments: [String], root: any ParsableCommand.Type = Wcctl.self) -> String? {
        var command = root
        var path = root._commandName
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let word = arguments[index]
            index += 1
            if word.hasPrefix("-") {
                if optionsWithValue.contains(word) { index += 1 }
                continue
            }
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty else { return nil }  // A leaf: the rest are its arguments.
            if let next = subcommands.first(where: { $0._commandName == word }) {
                command = next
                path += " " + word
                continue
            }
            guard word != "help", let suggestion = closest(to: word, among: subcommands.map { $0._commandName }) else {
                return nil
            }
            return "\(path): unknown command '\(word)'; did you mean '\(suggestion)'? (see '\(path) --help')"
        }
        return nil
    }

    /// The nearest candidate (first on a tie) within one edit of a word of up to four letters, or two of
    /// a longer one; else the only candidate that starts with it.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let limit = word.count <= 4 ? 1 : 2
        let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }
        if let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= limit { return best.0 }
        let prefixed = candidates.filter { $0.hasPrefix(word) }
        return prefixed.count == 1 ? prefixed[0] : nil
    }

    /// Levenshtein distance (insertions, deletions, substitutions), with a transposition counting one.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
