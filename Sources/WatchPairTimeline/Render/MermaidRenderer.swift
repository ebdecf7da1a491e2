import Foundation

import WatchPairWire

/// Writes a ``TimelineDiagram`` as a Mermaid `sequenceDiagram`, for pasting into Markdown that renders
/// Mermaid (GitHub, GitLab). Mermaid draws every arrow straight across, so a userInfo transfer appears
/// where it was received, its label saying where it was queued.
public enum MermaidRenderer {
    /// The Mermaid text of `diagram`.
    public static func render(_ diagram: TimelineDiagram) -> String {
        var lines = [
            "sequenceDiagram",
            "    participant phone as phoned (iPhone)",
            "    participant watch as watchd (Watch)",
        ]
        for element in diagram.elements {
            let from = element.role.rawValue
            let to = element.role.peer.rawValue
            let label = clean(element.label)
            let line: String
            switch element.kind {
            case .message, .userInfo, .context: line = "\(from)->>\(to): \(label)"
            case .reply, .didFinish, .messageError: line = "\(from)-->>\(to): \(label)"
            case .messageLost: line = "\(from)-x\(to): \(label)"
            default: line = "Note \(element.role == .phone ? "left" : "right") of \(from): \(label)"
            }
            lines.append("    " + line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Mermaid ends a message at `;` and reads `#` as an entity; both are replaced.
    private static func clean(_ text: String) -> String {
        text.replacingOccurrences(of: ";", with: ",").replacingOccurrences(of: "#", with: "no. ")
    }
}
