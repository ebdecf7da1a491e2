import WatchPairTimeline
import WatchPairWire

/// Fetches the diagnostic events of one app or both, for `events` and `timeline`.
///
/// Each daemon answers with its whole history (kept across restarts, docs/ControlProtocol.md `events`);
/// both apps' lists are merged by time here (``EventSelection/merge(_:)``).
enum EventQuery {
    /// The control sockets of both apps of one pair: `phoned.ctl` and `watchd.ctl` in the pair's runtime
    /// directory (``GlobalOptions/runtimeDirectory(environment:)``: `$WCCTL_RUNTIME_DIR`, default
    /// `/run/watchpair`, and `NAME/` in it for `--pair NAME`), so both apps' events are of that pair only.
    /// `--control` and `$WCCTL_CONTROL` name one socket, so they do not apply.
    /// - Throws: `.usage` when `--control` is given, or for a bad pair name.
    static func bothTargets(_ globals: GlobalOptions, environment: [String: String]) throws(CLIError) -> [ControlTarget] {
        guard globals.control == nil else {
            throw .usage("--control names one app's socket; with both apps, set WCCTL_RUNTIME_DIR to their directory instead")
        }
        let directory = try globals.runtimeDirectory(environment: environment)
        let pair = try globals.resolvedPair(environment: environment)
        return Role.allCases.map { ControlTarget(role: $0, path: directory + "/" + $0.daemonName + ".ctl", pair: pair) }
    }

    /// The events of `targets`, merged by time. An app that is not running is left out with a warning on
    /// standard error, so a session whose watch app has exited can still be read; when none is running
    /// that is the error (exit 3).
    static func events(of targets: [ControlTarget], context: CommandContext) throws(CLIError) -> [SessionEvent] {
        var lists: [[SessionEvent]] = []
        var notRunning: CLIError?
        for target in targets {
            do {
                lists.append(try events(of: target))
            } catch where error.kind == .notRunning && targets.count > 1 {
                context.streams.writeErr("wcctl: \(error.message); its events are left out\n")
                notRunning = error
            }
        }
        if lists.isEmpty, let notRunning { throw notRunning }
        return EventSelection.merge(lists)
    }

    /// One app's events, oldest first.
    static func events(of target: ControlTarget) throws(CLIError) -> [SessionEvent] {
        let client = try ControlClient.connect(to: target)
        let result = try client.call(client.makeRequest("events"), wait: Payload.requestWait)
        var events: [SessionEvent] = []
        for json in result[field: "events"]?.arrayElements ?? [] {
            events.append(try event(json, from: target))
        }
        return events
    }

    /// Reads one event object the daemon sent.
    static func event(_ json: JSONValue, from target: ControlTarget) throws(CLIError) -> SessionEvent {
        do {
            return try SessionEvent(json: json)
        } catch {
            throw CLIError(.failure, "\(target.daemonName) sent an \(error)")
        }
    }
}
