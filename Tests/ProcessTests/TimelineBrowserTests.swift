import Foundation
import Testing
import WatchPairWire

/// `wcctl timeline` of a scripted session of the real daemons, rendered by a real browser (headless
/// Chromium, installed by scripts/deps.sh): the elements drawn in the DOM it dumps must match the
/// session's events.
///
/// Set `TIMELINE_KEEP=DIR` to keep the page, its screenshot and the events there (docs/Timeline.md's
/// picture is made this way).
@Suite("Timeline in a browser")
struct TimelineBrowserTests {
    @Test("a session with replies, errors, transfers, contexts, a kill and a restart is drawn as it happened")
    func scriptedSession() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let app = try await pair.startHandler(["receive", "--follow", "--reply", #"{"pong":true}"#], side: .watch)
            try await pair.ok(["send", #"{"ping":1}"#])
            try await pair.ok(["send", "--no-reply", #"{"tap":2}"#])
            let file = pair.path("d.bin")
            try Data("x".utf8).write(to: URL(fileURLWithPath: file))
            expectWCError(try await pair.wcctl(["send-data", file]), 7014)
            let first = try await pair.transfer(#"{"n":1}"#)
            try await pair.ok(["context", "set", #"{"v":1}"#])
            try await pair.pollUntil("the first transfer to finish and the context to arrive") {
                let phone = try await pair.status(.phone)
                let watch = try await pair.status(.watch)
                return phone["outstandingTransfers"] == .integer(0) && watch["contextReceivedVersion"] == .integer(1)
            }

            // The watch app is killed; the phone's message fails, its transfer waits for the restart.
            await pair.killDaemon(.watch)
            _ = await app.waitForExit(timeout: .seconds(10))
            try await pair.pollUntil("the phone to see the watch gone") { try await pair.status(.phone)["reachable"] == .bool(false) }
            expectWCError(try await pair.wcctl(["send", #"{"ping":3}"#], timeout: .seconds(15)), 7007)
            let second = try await pair.transfer(#"{"n":2}"#)
            try await pair.startReady(.watch)
            try await pair.pollUntil("the second transfer to finish") { try await pair.status(.phone)["outstandingTransfers"] == .integer(0) }

            let html = pair.path("session.html")
            let wrote = try await pair.ok(["timeline", "--html", html])
            #expect(wrote.stdout.first?.hasPrefix("wrote \(html): ") == true, "\(wrote)")
            let mermaid = try await pair.ok(["timeline", "--mermaid", "-"])
            #expect(mermaid.stdout.first == "sequenceDiagram" && mermaid.stdout.contains { $0.contains("-x") }, "\(mermaid)")
            let events = try await pair.ok(["--json", "events", "--both"]).json

            let dom = try await Browser.dumpDOM(html, in: pair)
            let drawn = DrawnElements(dom: dom)
            // Counted from the events, independently of the layout code.
            func count(_ role: String, _ kind: String, _ also: (JSONValue) -> Bool = { _ in true }) -> Int {
                events.filter { $0["role"] == .string(role) && $0["event"] == .string(kind) && also($0) }.count
            }
            let answered = count("phone", "messageSent") { $0["message"]?.stringValue?.hasSuffix("answered") == true }
            #expect(drawn.count("message") == count("watch", "messageReceived") + count("watch", "messageFailed"), "\(drawn)")
            #expect(drawn.count("reply") == answered && answered == 1, "\(drawn)")
            #expect(drawn.count("messageError") == 1 && drawn.labels("messageError").first?.contains("7014") == true, "\(drawn)")
            #expect(drawn.count("messageLost") == 1 && drawn.labels("messageLost").first?.contains("7007") == true, "\(drawn)")
            #expect(drawn.count("userInfo") == 2 && drawn.count("didFinish") == 2, "\(drawn)")
            for id in [first, second] { #expect(drawn.kinds(linked: id) == ["userInfo", "didFinish"], "\(id): \(drawn)") }
            #expect(drawn.count("context") == count("watch", "contextReceived") && drawn.count("context") == 1, "\(drawn)")
            #expect(drawn.count("foregroundLaunch") == 3, "phone once, watch twice: \(drawn)")
            #expect(drawn.count("ended") == 1, "the killed watch run: \(drawn)")
            #expect(drawn.count("linkUp") == count("phone", "peerConnected") + count("watch", "peerConnected"), "\(drawn)")
            #expect(drawn.count("linkDown") == count("phone", "peerDisconnected") + count("watch", "peerDisconnected"), "\(drawn)")
            #expect(drawn.count("linkDown") >= 1, "the kill drops the link: \(drawn)")

            let png = try await Browser.screenshot(html, height: Browser.pageHeight(dom), in: pair)
            #expect(png.count > 20_000 && png.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]), "a PNG with something drawn: \(png.count) bytes")
            if let keep = ProcessInfo.processInfo.environment["TIMELINE_KEEP"] {
                try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: html, toPath: keep + "/session.html")
                try png.write(to: URL(fileURLWithPath: keep + "/session.png"))
            }
        }
    }
}

/// The `<g data-kind=…>` elements of the timeline in a dumped DOM.
struct DrawnElements: CustomStringConvertible {
    /// (kind, link, label text) per element, in document order.
    var elements: [(kind: String, link: String?, label: String)] = []

    init(dom: String) {
        for part in dom.components(separatedBy: "<g class=\"el ").dropFirst() {
            guard let kind = Self.attribute("data-kind", in: part) else { continue }
            let label = part.components(separatedBy: "<text").dropFirst().first
                .flatMap { $0.split(separator: ">", maxSplits: 1).last }
                .map { String($0.prefix { $0 != "<" }) } ?? ""
            elements.append((kind, Self.attribute("data-link", in: part), label))
        }
    }

    static func attribute(_ name: String, in text: String) -> String? {
        guard let range = text.range(of: name + "=\"") else { return nil }
        return String(text[range.upperBound...].prefix { $0 != "\"" })
    }

    func count(_ kind: String) -> Int { elements.filter { $0.kind == kind }.count }
    func labels(_ kind: String) -> [String] { elements.filter { $0.kind == kind }.map(\.label) }
    func kinds(linked id: String) -> [String] { elements.filter { $0.link == id }.map(\.kind) }

    var description: String { elements.map { "\($0.kind)[\($0.label)]" }.joined(separator: " ") }
}

/// Headless Chromium, run as a child of the sandbox (so it is reaped with it).
enum Browser {
    static let path = "/usr/bin/chromium"
    /// Root (as in CI containers) needs --no-sandbox; the rest keeps it quiet and self-contained.
    static let flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--hide-scrollbars"]

    static func run(_ arguments: [String], in pair: PairSandbox) async throws -> ChildProcess {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw SandboxError("\(path) is missing: run scripts/deps.sh (Debian package chromium)")
        }
        let child = try pair.spawn(
            name: "chromium", executable: path, arguments: flags + ["--user-data-dir=" + pair.path("chromium")] + arguments)
        guard let status = await child.waitForExit(timeout: .seconds(90)) else {
            await child.killAndReap()
            throw SandboxError("chromium did not finish within 90 s: \(child.stderrText.suffix(2000))")
        }
        await child.stdout.waitForEnd(timeout: .seconds(10))
        guard status == 0 else { throw SandboxError("chromium exited with \(status): \(child.stderrText.suffix(2000))") }
        return child
    }

    /// The DOM Chromium built from the page, serialized.
    static func dumpDOM(_ html: String, in pair: PairSandbox) async throws -> String {
        let child = try await run(["--dump-dom", "file://" + html], in: pair)
        let dom = child.stdout.lines.joined(separator: "\n")
        guard dom.contains("<svg") else { throw SandboxError("no <svg> in the dumped DOM: \(dom.prefix(2000))") }
        return dom
    }

    /// The page's height: the drawing's, plus the header and legend above it.
    static func pageHeight(_ dom: String) -> Int {
        let svg = dom.components(separatedBy: "<svg").dropFirst().first ?? ""
        return (DrawnElements.attribute("height", in: svg).flatMap { Int($0) } ?? 1200) + 170
    }

    /// A PNG of the page, `height` pixels tall.
    static func screenshot(_ html: String, height: Int, in pair: PairSandbox) async throws -> Data {
        let png = pair.path("session.png")
        _ = try await run(["--screenshot=" + png, "--window-size=1100,\(height)", "file://" + html], in: pair)
        return try Data(contentsOf: URL(fileURLWithPath: png))
    }
}
