import WatchPairWire

/// Events → diagram: the pure rules that turn both apps' merged events into a ``TimelineDiagram``.
///
/// - A message is an arrow at the receiver's `messageReceived`, matched to the sender's outcome by
///   message id (within the sender's run: ids restart at launch); `messageSent` of an answered message
///   draws the reply back, `messageFailed` the error back (7012, 7014), or, when the peer never got it,
///   an arrow ending in a cross (7007).
/// - A userInfo transfer is one arrow from its `userInfoQueued` row to its `userInfoDelivered` row
///   (slanted when it waited for the peer), and `userInfoFinished` an arrow back: all three carry the
///   transfer id as `link`. A transfer never delivered becomes a `queued` note.
/// - A context version is an arrow from `contextUpdated` to the peer's `contextReceived` of that
///   version; a version never received (superseded, or still pending) becomes a `queued` note.
/// - Launches, idle exits, link changes, faults and injected quirks (`quirkInjected`, labelled with its
///   `WC_QUIRK`) are notes on the app's lifeline. A launch of an app
///   whose previous run did not end in an idle exit first closes that run with an `ended` note: it was
///   stopped or killed, which the events alone cannot tell apart.
/// `sessionActivated` draws nothing (the launch says it). Any other event is an `info` note, so nothing
/// reported is left out of the picture.
public enum TimelineLayout {
    /// The diagram of `events`, which must be in time order (``EventSelection/merge(_:)``).
    public static func diagram(of events: [SessionEvent]) -> TimelineDiagram {
        var builder = Builder()
        for event in events { builder.add(event) }
        return builder.finish()
    }

    private struct MessageKey: Hashable {
        var sender: Role
        var id: Int64
    }

    private struct Builder {
        var diagram = TimelineDiagram()
        /// The open run of each app: the row it started at.
        var running: [Role: Int] = [:]
        /// Apps seen at all (an app first seen without a launch was running from row 0).
        var seen: Set<Role> = []
        /// The time of each app's latest event, for the `ended` note.
        var lastTime: [Role: Int64] = [:]
        /// The last row drawn for each app: a run that ends unseen (a kill) ends there.
        var lastRow: [Role: Int] = [:]
        /// Messages received whose sender's outcome has not been seen: the arrow's element index.
        var delivered: [MessageKey: Int] = [:]
        /// userInfo queued and not yet delivered: transfer id → (row, seq).
        var queued: [String: (row: Int, role: Role, event: SessionEvent)] = [:]
        /// Context versions set and not yet received: (sender, version) → row.
        var contexts: [MessageKey: (row: Int, event: SessionEvent)] = [:]

        mutating func row(_ event: SessionEvent) -> Int {
            diagram.rows.append(event.time)
            lastRow[event.role] = diagram.rows.count - 1
            return diagram.rows.count - 1
        }

        mutating func note(_ kind: TimelineElementKind, _ event: SessionEvent, _ label: String) {
            let at = row(event)
            diagram.elements.append(TimelineElement(kind, role: event.role, fromRow: at, label: label, detail: event.textLine))
        }

        mutating func add(_ event: SessionEvent) {
            let role = event.role
            if !seen.contains(role) {
                seen.insert(role)
                if !Self.isLaunch(event.kind) { running[role] = 0 }
            }
            defer { lastTime[role] = event.time }
            switch event.kind {
            case "sessionActivated":
                return
            case "foregroundLaunch", "backgroundLaunch":
                launch(event)
            case "appOpened":
                note(.appOpened, event, "opened: foreground")
            case "idleExit":
                note(.idleExit, event, "idle exit")
                close(role)
            case "peerConnected":
                note(.linkUp, event, "link up")
            case "peerDisconnected", "peerUnresponsive":
                note(.linkDown, event, event.kind == "peerUnresponsive" ? "link silent, closed" : "link down")
            case "frameRejected", "handshakeFailed", "queueFull", "payloadRejected", "peerUnavailable":
                note(.fault, event, Self.faultLabel(event))
            case "quirkInjected":
                note(.quirk, event, "quirk " + (event.json["quirk"]?.stringValue ?? "?"))
            case "messageReceived":
                messageReceived(event)
            case "messageSent", "messageFailed":
                messageOutcome(event)
            case "userInfoQueued":
                queued[event.transferId ?? ""] = (row(event), role, event)
            case "userInfoDelivered":
                userInfoDelivered(event)
            case "userInfoFinished":
                let at = row(event)
                diagram.elements.append(
                    TimelineElement(
                        .didFinish, role: role.peer, fromRow: at, label: "didFinish \(event.seq.map(String.init) ?? "")",
                        detail: event.textLine, link: event.transferId))
            case "userInfoCancelled":
                queued[event.transferId ?? ""] = nil
                note(.queued, event, "userInfo cancelled")
            case "contextUpdated":
                contexts[MessageKey(sender: role, id: event.seq ?? 0)] = (row(event), event)
            case "contextReceived":
                contextReceived(event)
            default:
                note(.info, event, Self.infoLabel(event))
            }
        }

        static func isLaunch(_ kind: String) -> Bool { kind == "foregroundLaunch" || kind == "backgroundLaunch" }

        mutating func launch(_ event: SessionEvent) {
            let role = event.role
            if running[role] != nil {
                // The previous run left no idle exit: it was stopped or killed after its last event, so
                // its lifeline ends there; the note stands where the next launch reveals it.
                let last = lastTime[role].map { EventTimestamp.format(microseconds: $0).dropFirst(11).dropLast() } ?? ""
                let lastSeen = lastRow[role]
                let at = row(event)
                diagram.elements.append(
                    TimelineElement(
                        .ended, role: role, fromRow: at, label: "stopped or killed",
                        detail: "no idle exit after its last event at \(last): stopped or killed"))
                close(role, at: lastSeen ?? at)
            }
            let background = event.kind == "backgroundLaunch"
            note(background ? .backgroundLaunch : .foregroundLaunch, event, background ? "background launch" : "launched")
            running[role] = diagram.rows.count - 1
        }

        mutating func close(_ role: Role, at row: Int? = nil) {
            guard let from = running.removeValue(forKey: role) else { return }
            diagram.runs.append(TimelineRun(role: role, fromRow: from, toRow: row ?? diagram.rows.count - 1))
        }

        mutating func messageReceived(_ event: SessionEvent) {
            let at = row(event)
            diagram.elements.append(
                TimelineElement(
                    .message, role: event.role.peer, fromRow: at, label: "message \(event.seq.map(String.init) ?? "")",
                    detail: event.textLine))
            if let id = event.seq { delivered[MessageKey(sender: event.role.peer, id: id)] = diagram.elements.count - 1 }
        }

        mutating func messageOutcome(_ event: SessionEvent) {
            // The receiver's own "not handled" report: the message arrived; the sender's 7014 draws the error.
            if event.kind == "messageFailed", event.message.contains("not handled") {
                if let id = event.seq, delivered[MessageKey(sender: event.role.peer, id: id)] == nil {
                    messageReceived(event)
                }
                return
            }
            let key = event.seq.map { MessageKey(sender: event.role, id: $0) }
            let arrived = key.flatMap { delivered.removeValue(forKey: $0) }
            let answered = event.message.hasSuffix("answered")
            // A delivered message without reply ends at its arrow: nothing more to draw, no row.
            if event.kind == "messageSent", arrived != nil, !answered { return }
            let at = row(event)
            let took = event.durationUs.map { " · " + SessionEvent.duration($0) } ?? ""
            if event.kind == "messageSent" {
                if arrived == nil {
                    diagram.elements.append(
                        TimelineElement(.message, role: event.role, fromRow: at, label: "message \(event.seq ?? 0)", detail: event.textLine))
                }
                guard answered else { return }
                diagram.elements.append(
                    TimelineElement(.reply, role: event.role.peer, fromRow: at, label: "reply" + took, detail: event.textLine))
                return
            }
            let code = Self.errorLabel(event.errorCode)
            if arrived != nil {
                diagram.elements.append(
                    TimelineElement(.messageError, role: event.role.peer, fromRow: at, label: "✕ " + code + took, detail: event.textLine))
            } else {
                let name = event.seq.map { "message \($0)" } ?? "message"
                diagram.elements.append(
                    TimelineElement(.messageLost, role: event.role, fromRow: at, label: "\(name) ✕ \(code)", detail: event.textLine))
            }
        }

        mutating func userInfoDelivered(_ event: SessionEvent) {
            let id = event.transferId ?? ""
            let start = queued.removeValue(forKey: id)
            let at = row(event)
            let detail = [start?.event.textLine, event.textLine].compactMap { $0 }.joined(separator: "\n")
            diagram.elements.append(
                TimelineElement(
                    .userInfo, role: event.role.peer, fromRow: start?.row ?? at, toRow: at,
                    label: "userInfo \(event.seq.map(String.init) ?? "")", detail: detail, link: event.transferId))
        }

        mutating func contextReceived(_ event: SessionEvent) {
            let version = event.seq ?? 0
            let start = contexts.removeValue(forKey: MessageKey(sender: event.role.peer, id: version))
            let at = row(event)
            let detail = [start?.event.textLine, event.textLine].compactMap { $0 }.joined(separator: "\n")
            diagram.elements.append(
                TimelineElement(.context, role: event.role.peer, fromRow: start?.row ?? at, toRow: at, label: "context v\(version)", detail: detail))
        }

        mutating func finish() -> TimelineDiagram {
            // What was sent and never arrived stays visible as a note where it was sent.
            for (_, pending) in queued.sorted(by: { $0.value.row < $1.value.row }) {
                diagram.elements.append(
                    TimelineElement(
                        .queued, role: pending.role, fromRow: pending.row, label: "userInfo \(pending.event.seq ?? 0) outstanding",
                        detail: pending.event.textLine, link: pending.event.transferId))
            }
            for (key, pending) in contexts.sorted(by: { $0.value.row < $1.value.row }) {
                diagram.elements.append(
                    TimelineElement(
                        .queued, role: key.sender, fromRow: pending.row, label: "context v\(key.id) not received",
                        detail: pending.event.textLine))
            }
            // Row order for drawing and reading; ties keep the order the events gave.
            diagram.elements = diagram.elements.enumerated()
                .sorted { ($0.element.toRow, $0.element.fromRow, $0.offset) < ($1.element.toRow, $1.element.fromRow, $1.offset) }
                .map(\.element)
            for role in [Role.phone, .watch] where running[role] != nil {
                diagram.runs.append(TimelineRun(role: role, fromRow: running[role]!, toRow: nil))
            }
            diagram.runs.sort { ($0.fromRow, $0.role.rawValue) < ($1.fromRow, $1.role.rawValue) }
            return diagram
        }

        static func errorLabel(_ code: Int?) -> String {
            guard let code else { return "failed" }
            guard let known = WCErrorCode(rawValue: code) else { return String(code) }
            return "\(code) \(known.name)"
        }

        static func faultLabel(_ event: SessionEvent) -> String {
            let name = switch event.kind {
            case "frameRejected": "frame rejected"
            case "handshakeFailed": "handshake failed"
            case "queueFull": "queue full"
            case "payloadRejected": "payload refused"
            default: "peer unavailable"
            }
            return event.errorCode.map { "\(name) · \($0)" } ?? name
        }

        static func infoLabel(_ event: SessionEvent) -> String {
            // A phone's watches (docs/Watches.md): the names the message quotes.
            let quoted = event.message.split(separator: "'", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
            switch event.kind {
            case "watchSwitched" where quoted.count >= 2: return "watch switch \(quoted[0]) → \(quoted[1])"
            case "watchUnpaired" where !quoted.isEmpty: return "watch \(quoted[0]) unpaired"
            case "watchPaired" where !quoted.isEmpty: return "watch \(quoted[0]) paired"
            default: break
            }
            if event.kind == "reachabilityChanged" {
                return event.message.contains("not reachable") || event.message.contains("unreachable") ? "not reachable" : "reachable"
            }
            return event.kind
        }
    }
}
