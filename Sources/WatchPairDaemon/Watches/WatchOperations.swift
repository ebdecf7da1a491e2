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
    /// the phone holds for it (``WatchesList``).
    func list() async throws(WCFailure) -> JSONValue {
        let watches = try phone()
        let (machine, daemon, bound) = watches.snapshot()
        return await WatchesList.json(
            machine: machine, bound: daemon == nil ? nil : bound?.rawValue, channels: daemon?.channels,
            configuration: watches.configuration, logger: watches.logger)
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
        return .object(["watch": .string(name), "paired": .bool(false), "dropped": WatchesList.json(dropped)])
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

}
