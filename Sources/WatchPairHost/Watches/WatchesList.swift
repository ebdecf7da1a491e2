import Foundation
import Logging
import WatchPairCore
import WatchPairWire

/// The answer to `watches` (docs/ControlProtocol.md), for `phoned` and a `WCSession` phone app alike.
public enum WatchesList {
    /// `{"active", "session", "watches": [{"name", "paired", "active", "bound", "reachable", "installed",
    /// "queued"}]}`: the bound watch (`bound`, served by `channels`) from its running engine and store, the
    /// others from their closed stores (the phone's configuration not bound to a watch).
    public static func json(
        machine: WatchSwitchMachine, bound: String?, channels: AppChannels?, configuration: HostConfiguration, logger: Logger
    ) async -> JSONValue {
        let status = await channels?.status()
        var rows: [JSONValue] = []
        for watch in machine.watches {
            let isBound = watch.name == bound && channels != nil
            let queued = if isBound, let channels {
                await channels.queuedCounts()
            } else {
                await queued(watch.name, configuration: configuration, logger: logger)
            }
            rows.append(.object([
                "name": .string(watch.name), "paired": .bool(watch.paired), "active": .bool(machine.active == watch.name),
                "bound": .bool(isBound), "reachable": .bool(isBound && (status?.reachable ?? false)),
                "installed": .bool(isBound ? (status?.peerInstalled ?? watch.installed) : watch.installed),
                "queued": json(queued),
            ]))
        }
        return .object([
            "active": machine.active.map(JSONValue.string) ?? .null, "session": .string(name(of: machine.session)),
            "watches": .array(rows),
        ])
    }

    /// `{"userInfo", "files", "context"}`.
    public static func json(_ counts: QueuedCounts) -> JSONValue {
        .object(["userInfo": .integer(Int64(counts.userInfo)), "files": .integer(Int64(counts.files)), "context": .integer(Int64(counts.context))])
    }

    /// What the phone holds for a watch it is not bound to, read from its closed store (nothing when it has none).
    static func queued(_ name: String, configuration: HostConfiguration, logger: Logger) async -> QueuedCounts {
        guard let watch = try? PairName(validating: name) else { return QueuedCounts() }
        let store = configuration.forWatch(watch).store
        guard FileManager.default.fileExists(atPath: store.directory),
            let opened = try? await PairStore.open(store, logger: logger)
        else { return QueuedCounts() }
        let counts = (try? await opened.queuedCounts()) ?? QueuedCounts()
        try? await opened.close()
        return counts
    }

    /// The session's state as `watches` names it.
    static func name(of session: WatchSwitchMachine.Session) -> String {
        switch session {
        case .notActivated: "notActivated"
        case .inactive: "inactive"
        case .activated: "activated"
        }
    }
}
