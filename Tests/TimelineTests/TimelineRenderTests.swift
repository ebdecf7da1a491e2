import Testing
import WatchPairTimeline
import WatchPairWire

@Suite("Timeline rendering")
struct TimelineRenderTests {
    static let events = TimelineLayoutTests.table.flatMap(\.1).sorted { $0.time < $1.time }
    static let diagram = TimelineLayout.diagram(of: events)

    @Test func theSVGHasOneGroupPerElementWithItsKind() {
        let svg = SVGRenderer.render(Self.diagram)
        for kind in TimelineElementKind.allCases {
            let expected = Self.diagram.elements.filter { $0.kind == kind }.count
            #expect(svg.components(separatedBy: "data-kind=\"\(kind.rawValue)\"").count - 1 == expected, "\(kind)")
        }
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
    }

    @Test func theHTMLPageFetchesNothing() {
        let html = HTMLRenderer.render(Self.diagram, events: Self.events)
        #expect(html.hasPrefix("<!doctype html>"))
        // The only URL is the SVG namespace, which is a name, not a fetch.
        #expect(html.components(separatedBy: "http").count - 1 == 1)
        for tag in ["<script", "<link", "<img", "@import", "url(http"] { #expect(!html.contains(tag), "\(tag)") }
    }

    @Test func labelsAreEscaped() {
        let diagram = TimelineDiagram(rows: [0], elements: [TimelineElement(.info, role: .phone, fromRow: 0, label: "<b>&\"")])
        let svg = SVGRenderer.render(diagram)
        #expect(svg.contains("&lt;b&gt;&amp;&quot;") && !svg.contains("<b>"))
    }

    @Test func mermaidHasAParticipantPerAppAndALinePerElement() {
        let text = MermaidRenderer.render(Self.diagram)
        let lines = text.split(separator: "\n")
        #expect(lines.first == "sequenceDiagram")
        #expect(lines.count == 3 + Self.diagram.elements.count)
        #expect(lines.contains("    phone-xwatch: message 2 ✕ 7007 notReachable"))
        #expect(lines.contains("    watch-->>phone: didFinish 1"))
        #expect(lines.contains("    Note right of watch: stopped or killed"))
    }
}
