import WatchPairWire

/// Draws a ``TimelineDiagram`` as one self-contained HTML page: the SVG inline, the style inline, a
/// legend and a summary; nothing is fetched from the network, so the file can be mailed or attached to
/// a CI run and opened anywhere.
public enum HTMLRenderer {
    /// The page for `diagram`, titled with the span of `events` it was drawn from.
    public static func render(_ diagram: TimelineDiagram, events: [SessionEvent]) -> String {
        let span: String
        if let first = events.first, let last = events.last {
            let from = EventTimestamp.format(microseconds: first.time)
            let to = EventTimestamp.format(microseconds: last.time)
            // One date, then the clock times to the millisecond: what a person compares.
            span = "\(from.prefix(10)) · \(from.dropFirst(11).prefix(12)) – \(to.dropFirst(11).prefix(12)) UTC"
        } else {
            span = "no events"
        }
        let counts = Dictionary(grouping: events, by: \.role).mapValues(\.count)
        let summary = "\(events.count) events (phone \(counts[.phone] ?? 0), watch \(counts[.watch] ?? 0))"
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>WatchPair session · \(Markup.escape(span))</title>
            <style>
            body{margin:0;background:#f8fafc;color:#0f172a;font:14px system-ui,sans-serif}
            header{padding:20px 28px 8px}h1{font-size:20px;margin:0 0 4px}header p{margin:0;color:#475569}
            .legend{display:flex;flex-wrap:wrap;gap:6px 16px;padding:10px 28px;color:#334155;font-size:12.5px}
            .legend span{display:inline-flex;align-items:center;gap:6px}
            .legend i{display:inline-block;width:22px;height:0;border-top:2.5px solid}
            .legend b{display:inline-block;width:14px;height:10px;border:1px solid;border-radius:5px}
            main{padding:4px 20px 28px}main svg{background:#fff;border:1px solid #e2e8f0;border-radius:12px;box-shadow:0 1px 3px #0f172a14}
            </style>
            </head>
            <body>
            <header><h1>WatchPair session</h1><p>\(Markup.escape(span)) · \(Markup.escape(summary)) · hover an element for its events</p></header>
            <div class="legend">\(legend)</div>
            <main>
            \(SVGRenderer.render(diagram))</main>
            </body>
            </html>

            """
    }

    private static let legend = [
        ("i", "#2563eb", "solid", "message"), ("i", "#16a34a", "dashed", "reply"), ("i", "#dc2626", "dashed", "error / ✕ not delivered"),
        ("i", "#7c3aed", "solid", "userInfo (queued → received)"), ("i", "#7c3aed", "dashed", "didFinish"),
        ("i", "#d97706", "solid", "context version"), ("b", "#16a34a", "solid", "launch"), ("b", "#64748b", "solid", "idle exit"),
        ("b", "#dc2626", "solid", "stopped or killed / fault"), ("b", "#0ea5e9", "solid", "link up"), ("b", "#ea580c", "solid", "link down"),
        ("b", "#c026d3", "dashed", "quirk injected"),
    ].map { tag, colour, line, text in
        "<span><\(tag) style=\"border-color:\(colour);border-style:\(line)\"></\(tag)>\(Markup.escape(text))</span>"
    }.joined()
}
