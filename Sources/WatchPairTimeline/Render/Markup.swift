/// Escaping for text placed in SVG and HTML.
enum Markup {
    /// `text` with `&`, `<`, `>` and `"` escaped, safe in element content and in double-quoted attributes.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
