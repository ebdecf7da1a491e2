import ArgumentParser
import Foundation
import Glibc
import WatchPairTimeline
import WatchPairWire

/// `wcctl timeline [--since T] --html FILE | --svg FILE | --mermaid FILE`: a sequence diagram of the
/// session across both apps, drawn from their events (docs/Timeline.md).
struct TimelineCommand: WcctlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Draw both apps' events as a sequence diagram (HTML, SVG or Mermaid).",
        discussion: """
            Two lifelines, phone and watch; messages with their replies or errors;
            userInfo transfers from queued to received, with their didFinish; context
            versions; launches, idle exits, kills, link drops and rejected frames. The
            HTML page is one self-contained file (no network); hover an element for its
            events. FILE '-' writes to standard output. An app that is not running is
            left out with a warning.

            EXAMPLE
              wcctl timeline --html session.html
              wcctl timeline --since 5m --mermaid session.mmd
            """
    )

    @ParentCommand var root: Wcctl

    @Option(help: ArgumentHelp("Only events at or after T: an ISO 8601 time, or an age such as 90s, 15m, 2h, 1d.", valueName: "T"))
    var since: String?

    @Option(help: ArgumentHelp("Write a self-contained HTML page to FILE.", valueName: "FILE"))
    var html: String?

    @Option(help: ArgumentHelp("Write an SVG image to FILE.", valueName: "FILE"))
    var svg: String?

    @Option(help: ArgumentHelp("Write a Mermaid sequenceDiagram to FILE.", valueName: "FILE"))
    var mermaid: String?

    func validate() throws {
        if let since { _ = try SinceArgument.validated(since) }
        let given = [html, svg, mermaid].compactMap { $0 }.count
        guard given == 1 else { throw ValidationError("give exactly one of --html FILE, --svg FILE, --mermaid FILE") }
    }

    func execute(_ context: CommandContext) throws(CLIError) {
        let now = EventTimestamp.microseconds(Date())
        let selection = EventSelection(since: try since.map { text throws(CLIError) in try SinceArgument.parse(text, now: now) })
        let targets = try EventQuery.bothTargets(root.globals, environment: context.environment.variables)
        let events = selection.apply(try EventQuery.events(of: targets, context: context))
        let diagram = TimelineLayout.diagram(of: events)
        let (path, text): (String, String)
        if let html {
            (path, text) = (html, HTMLRenderer.render(diagram, events: events))
        } else if let svg {
            (path, text) = (svg, SVGRenderer.render(diagram))
        } else {
            (path, text) = (mermaid ?? "-", MermaidRenderer.render(diagram))
        }
        try write(text, to: path, context)
        guard path != "-" else { return }
        let summary: JSONValue = .object([
            "file": .string(path), "events": .integer(Int64(events.count)), "elements": .integer(Int64(diagram.elements.count)),
        ])
        if context.json {
            try context.printJSON(summary)
        } else {
            try context.print("wrote \(path): \(events.count) events, \(diagram.elements.count) drawn")
        }
    }

    /// Writes `text` to `path` (`-`: standard output), replacing the file.
    private func write(_ text: String, to path: String, _ context: CommandContext) throws(CLIError) {
        let bytes = Array(text.utf8)
        guard path != "-" else { return try context.streams.writeOut(bytes) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CLIError.system("cannot create \(path)", errno: errno) }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw CLIError.system("cannot write \(path)", errno: errno) }
            offset += written
        }
    }
}
