import WatchPairWire

/// Draws a ``TimelineDiagram`` as one standalone SVG document (its style inline, no fonts or scripts
/// fetched). Every drawn element is a `<g class="el k-KIND" data-kind=… data-role=… data-from=…
/// data-to=…>` with a `<title>` holding its events, so a browser shows them on hover and tests can
/// check the drawing through the DOM.
public enum SVGRenderer {
    /// The colours and shapes of each kind (shared with the HTML page's legend).
    public static let style = """
        .lifeline{stroke:#94a3b8;stroke-width:1.5;stroke-dasharray:4 5}
        .run{fill:#cbd5e1}.run.phone{fill:#bfdbfe}.run.watch{fill:#ddd6fe}
        .head rect{rx:10;stroke-width:1.5}.head.phone rect{fill:#eff6ff;stroke:#3b82f6}.head.watch rect{fill:#f5f3ff;stroke:#8b5cf6}
        .head .name{font:600 16px system-ui,sans-serif;fill:#0f172a}.head .sub{font:12px system-ui,sans-serif;fill:#475569}
        .time{font:11px ui-monospace,monospace;fill:#64748b}.rowline{stroke:#f1f5f9}
        .el line,.el path{stroke-width:2;fill:none}
        .el text{font:12px system-ui,sans-serif;paint-order:stroke;stroke:#fff;stroke-width:4px;stroke-linejoin:round}
        .k-message line{stroke:#2563eb}.k-message text{fill:#1d4ed8}
        .k-reply line{stroke:#16a34a;stroke-dasharray:6 4}.k-reply text{fill:#15803d}
        .k-messageError line{stroke:#dc2626;stroke-dasharray:6 4}.k-messageError text{fill:#b91c1c}
        .k-messageLost line,.k-messageLost path{stroke:#dc2626}.k-messageLost text{fill:#b91c1c}
        .k-userInfo line{stroke:#7c3aed}.k-userInfo text{fill:#6d28d9}
        .k-didFinish line{stroke:#7c3aed;stroke-dasharray:6 4}.k-didFinish text{fill:#6d28d9}
        .k-context line{stroke:#d97706}.k-context text{fill:#b45309}
        .note rect{rx:9;stroke-width:1}.note text{stroke:none;font-size:11.5px}
        .k-foregroundLaunch rect{fill:#dcfce7;stroke:#16a34a}.k-backgroundLaunch rect{fill:#ecfccb;stroke:#65a30d}.k-appOpened rect{fill:#dcfce7;stroke:#16a34a}
        .k-idleExit rect{fill:#f1f5f9;stroke:#64748b}.k-ended rect{fill:#fee2e2;stroke:#dc2626}
        .k-linkUp rect{fill:#f0f9ff;stroke:#0ea5e9}.k-linkDown rect{fill:#fff7ed;stroke:#ea580c}
        .k-fault rect{fill:#fee2e2;stroke:#b91c1c}.k-queued rect{fill:#faf5ff;stroke:#a78bfa;stroke-dasharray:3 3}
        .k-quirk rect{fill:#fdf4ff;stroke:#c026d3;stroke-dasharray:4 2}
        .k-info rect{fill:#f8fafc;stroke:#cbd5e1}
        .el:hover line{stroke-width:3.5}.el:hover rect{stroke-width:2}
        """

    /// The SVG document of `diagram`.
    public static func render(_ diagram: TimelineDiagram) -> String {
        let g = SVGGeometry(rowCount: diagram.rows.count)
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" class="timeline" width="\(g.width)" height="\(g.bottom)" \
            viewBox="0 0 \(g.width) \(g.bottom)" role="img" aria-label="WatchPair session timeline">
            <style>\(style)</style>
            <defs>\(markers)</defs>
            <rect width="100%" height="100%" fill="#ffffff"/>

            """
        out += header(g)
        out += timeColumn(diagram, g)
        for run in diagram.runs {
            let from = g.y(run.fromRow) - g.rowHeight / 2
            let to = run.toRow.map { g.y($0) } ?? (g.bottom - 12)
            out += "<rect class=\"run \(run.role.rawValue)\" data-role=\"\(run.role.rawValue)\" x=\"\(g.x(run.role) - 5)\" y=\"\(from)\" width=\"10\" height=\"\(max(to - from, 4))\" rx=\"4\"/>\n"
        }
        for element in diagram.elements where element.kind.isArrow { out += arrow(element, g) }
        for element in diagram.elements where !element.kind.isArrow { out += note(element, g) }
        return out + "</svg>\n"
    }

    private static let markers = ["message": "#2563eb", "reply": "#16a34a", "messageError": "#dc2626", "userInfo": "#7c3aed", "didFinish": "#7c3aed", "context": "#d97706"]
        .sorted { $0.key < $1.key }
        .map { name, colour in
            "<marker id=\"head-\(name)\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"\(colour)\"/></marker>"
        }
        .joined()

    private static func header(_ g: SVGGeometry) -> String {
        [(Role.phone, "phoned", "iPhone app"), (Role.watch, "watchd", "Apple Watch app")].map { role, name, sub in
            let x = g.x(role)
            return """
                <g class="head \(role.rawValue)"><rect x="\(x - 90)" y="20" width="180" height="52"/>\
                <text class="name" x="\(x)" y="43" text-anchor="middle">\(name)</text>\
                <text class="sub" x="\(x)" y="61" text-anchor="middle">\(sub)</text></g>
                <line class="lifeline" x1="\(x)" y1="72" x2="\(x)" y2="\(g.bottom - 8)"/>

                """
        }.joined()
    }

    /// The clock time of each row (UTC, to the millisecond), and a faint line across.
    private static func timeColumn(_ diagram: TimelineDiagram, _ g: SVGGeometry) -> String {
        var out = ""
        var previous = ""
        for (row, time) in diagram.rows.enumerated() {
            let clock = String(EventTimestamp.format(microseconds: time).dropFirst(11).prefix(12))
            let y = g.y(row)
            out += "<line class=\"rowline\" x1=\"\(g.timeColumn)\" y1=\"\(y)\" x2=\"\(g.width - 20)\" y2=\"\(y)\"/>"
            // A repeated time is left out so the column reads as steps.
            if clock != previous {
                out += "<text class=\"time\" x=\"16\" y=\"\(y + 4)\">\(clock)</text>"
            }
            out += "\n"
            previous = clock
        }
        return out
    }

    private static func open(_ element: TimelineElement, _ extra: String = "") -> String {
        var out = "<g class=\"el k-\(element.kind.rawValue)\(extra)\" data-kind=\"\(element.kind.rawValue)\" data-role=\"\(element.role.rawValue)\" data-from=\"\(element.fromRow)\" data-to=\"\(element.toRow)\""
        if let link = element.link { out += " data-link=\"\(Markup.escape(link))\"" }
        out += "><title>\(Markup.escape(element.detail.isEmpty ? element.label : element.detail))</title>"
        return out
    }

    private static func arrow(_ element: TimelineElement, _ g: SVGGeometry) -> String {
        let x1 = g.x(element.role)
        let y1 = g.y(element.fromRow)
        var x2 = g.x(element.role.peer)
        let y2 = g.y(element.toRow)
        let inset = x2 > x1 ? -7 : 7
        var out = open(element)
        if element.kind == .messageLost {
            // Stops half way with a cross: the peer never got it.
            x2 = (x1 + x2) / 2
            out += "<line x1=\"\(x1)\" y1=\"\(y1)\" x2=\"\(x2)\" y2=\"\(y2)\"/>"
            out += "<path d=\"M\(x2 - 7),\(y2 - 7) L\(x2 + 7),\(y2 + 7) M\(x2 - 7),\(y2 + 7) L\(x2 + 7),\(y2 - 7)\" stroke-width=\"3\"/>"
        } else {
            out += "<line x1=\"\(x1 - inset)\" y1=\"\(y1)\" x2=\"\(x2 + inset)\" y2=\"\(y2)\" marker-end=\"url(#head-\(element.kind.rawValue))\"/>"
        }
        // The label sits above the arrow's start, on the side it leaves from, so slanted arrows stay legible.
        let labelX = element.kind == .messageLost ? (x1 + x2) / 2 : (x1 + g.x(element.role.peer)) / 2
        let labelY = element.fromRow == element.toRow ? y1 - 6 : (y1 + y2) / 2 - 6
        out += "<text x=\"\(labelX)\" y=\"\(labelY)\" text-anchor=\"middle\">\(Markup.escape(element.label))</text></g>\n"
        return out
    }

    private static func note(_ element: TimelineElement, _ g: SVGGeometry) -> String {
        let width = SVGGeometry.textWidth(element.label) + 14
        let x = g.x(element.role)
        // Notes sit on the outer side of their lifeline, so the space between stays for arrows.
        let left = element.role == .phone ? x - width - 12 : x + 12
        let y = g.y(element.fromRow)
        var out = open(element, " note")
        out += "<rect x=\"\(left)\" y=\"\(y - 11)\" width=\"\(width)\" height=\"22\"/>"
        out += "<text x=\"\(left + width / 2)\" y=\"\(y + 4)\" text-anchor=\"middle\">\(Markup.escape(element.label))</text></g>\n"
        return out
    }
}
