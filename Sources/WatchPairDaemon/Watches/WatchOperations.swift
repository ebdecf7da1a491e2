import Foundation
import WatchPairCore
import WatchPairHost
import WatchPairWire

/// A phone's watches on the control socket (docs/Watches.md, docs/ControlProtocol.md): `watches`, `pair`,
/// `unpair`, `switch`. Without `watches` configured (and on the watch) they answer 7008 saying so.
struct WatchOperations {
    /// The phone's watches; nil for a phone with one watch, and for the watch.
    let watches: PhoneWatches?

    func register(on router: inout ControlRouter) {
        router.register(WatchesOperation.self) { _, _ throws(WCFailure) in try await list() }
        router.register(PairWatchOperation.self) { request, _ throws(WCFailure) in try pair(request.watch) }
        router.register(UnpairWatchOperation.self) { request, _ throws(WCFailure) in try await unpair(request.watch) }
        router.register(SwitchWatchOperation.self) { request, _ throws(WCFailure) in try switchTo(request.watch) }
        if let watches {
            router.refuse = { operation in watches.refusal(operation) }
        }
    }

    private func phone() throws(WCFailure) -> PhoneWatches {
        guard let watches else {
            throw WCFailure(.invalidParameter, "this daemon has one watch: list several in the phone's `watches` configuration (docs/Watches.md)")
        }
        return watches
    }

    /// `watches`: each watch with whether it is paired, active, bound, reachable and installed, and what
    /// the phone holds for it.
    func list() async throws(WCFailure) -> JSONValue {
        let watches = try phone()
        let (machine, daemon, bound) = watches.snapshot()
        let status = await daemon?.engine.status()
        var rows: [JSONValue] = []
        for watch in machine.watches {
            let isBound = watch.name == bound?.rawValue && daemon != nil
            let queued: QueuedCounts
            if isBound, let daemon {
                queued = (try? await daemon.store.queuedCounts()) ?? QueuedCounts()
            } else {
                queued = await Self.queued(watch.name, of: watches)
            }
            rows.append(.object([
                "name": .string(watch.name), "paired": .bool(watch.paired), "active": .bool(machine.active == watch.name),
                "bound": .bool(isBound), "reachable": .bool(isBound && (status?.reachable ?? false)),
                "installed": .bool(isBound ? (status?.peerInstalled ?? watch.installed) : watch.installed),
                "queued": Self.json(queued),
            ]))
        }
        return .object([
            "active": machine.active.map(JSONValue.string) ?? .null, "session": .string(Self.name(of: machine.session)),
            "watches": .array(rows),
        ])
    }

    /// `pair NAME`.
    func pair(_ name: String) throws(WCFailure) -> JSONValue {
        let watches = try phone()
        let wasPaired = watches.snapshot().0.watch(name)?.paired
        _ = try watches.apply(.pair(name))
        if wasPaired == false { watches.emit(.watchPaired, "watch '\(name)' is paired again (its queue starts empty)") }
        return .object(["watch": .string(name), "paired": .bool(true)])
    }

    /// `unpair NAME`: drops what the phone queued for it. phoned keeps an active watch: the active one (or
    /// the one a switch is leaving) is refused.
    func unpair(_ name: String) async throws(WCFailure) -> JSONValue {
        let watches = try phone()
        let (machine, _, bound) = watches.snapshot()
        if machine.watch(name) != nil, name == machine.active || name == bound?.rawValue {
            throw WCFailure(.invalidParameter, "watch '\(name)' is the active watch: switch to another one first (phoned always runs bound to a watch)")
        }
        let actions = try watches.apply(.unpair(name))
        guard actions.contains(.dropQueue(name)), let watch = try? PairName(validating: name) else {
            return .object(["watch": .string(name), "paired": .bool(false)])
        }
        let dropped: QueuedCounts
        do {
            dropped = try await WatchQueueDrop.drop(watches.configuration.forWatch(watch), logger: watches.logger)
        } catch {
            throw WCFailure(.genericError, "watch '\(name)' is unpaired, but its queue could not be dropped: \(error)")
        }
        watches.emit(.watchUnpaired, "watch '\(name)' is unpaired: \(dropped.total) queued items dropped (\(dropped))")
        return .object(["watch": .string(name), "paired": .bool(false), "dropped": Self.json(dropped)])
    }

    /// `switch NAME`: the session goes inactive while the bound watch's queue drains, then the daemon of
    /// `NAME` starts.
    func switchTo(_ name: String) throws(WCFailure) -> JSONValue {
        let watches = try phone()
        let from = watches.snapshot().0.active
        let actions = try watches.apply(.switchTo(name))
        guard actions.contains(.reportInactive) else {
            return .object(["active": .string(name), "switching": .bool(false)])
        }
        watches.emit(
            .watchSwitched,
            "switching from watch '\(from ?? "none")' to '\(name)': inactive until what was queued for '\(from ?? "none")' drains or its link is gone")
        watches.startDrain()
        return .object(["active": .string(name), "switching": .bool(true), "from": from.map(JSONValue.string) ?? .null])
    }

    /// What the phone holds for a watch it is not bound to: read from its closed store.
    static func queued(_ name: String, of watches: PhoneWatches) async -> QueuedCounts {
        guard let watch = try? PairName(validating: name) else { return QueuedCounts() }
        let configuration = watches.configuration.forWatch(watch)
        guard FileManager.default.fileExists(atPath: configuration.store.directory),
            let store = try? await PairStore.open(configuration.store, logger: watches.logger)
        else { return QueuedCounts() }
        let counts = (try? await store.queuedCounts()) ?? QueuedCounts()
        try? await store.close()
        return counts
    }

    static func json(_ counts: QueuedCounts) -> JSONValue {
        .object(["userInfo": .integer(Int64(counts.userInfo)), "files": .integer(Int64(counts.files)), "context": .integer(Int64(counts.context))])
    }

    static func name(of session: WatchSwitchMachine.Session) -> String {
        switch session {
        case .notActivated: "notActivated"
        case .inactive: "inactive"
        case .activated: "activated"
        }
    }
}

/// `watches`: the phone's watches.
struct WatchesOperation: FieldlessControlOperation {
    static let name = "watches"
}

/// An operation on one of the phone's watches: its one field is `watch`, the watch's name.
protocol WatchNameOperation: ControlOperation {
    var watch: String { get }
    init(watch: String)
}

extension WatchNameOperation {
    init(fields: inout ControlFieldReader) throws(WCFailure) {
        self.init(watch: try Self.required("watch", from: &fields) { fields throws(WCFailure) in try fields.string() })
    }
}

/// `pair`: pairs the listed watch `watch` again.
struct PairWatchOperation: WatchNameOperation {
    static let name = "pair"
    let watch: String
}

/// `unpair`: unpairs `watch`, dropping what the phone queued for it.
struct UnpairWatchOperation: WatchNameOperation {
    static let name = "unpair"
    let watch: String
}

/// `switch`: makes `watch` the active watch.
struct SwitchWatchOperation: WatchNameOperation {
    static let name = "switch"
    let watch: String
}
