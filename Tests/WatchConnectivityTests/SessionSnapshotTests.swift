import Testing
import WatchPairCore
import WatchPairWire

@testable import WatchConnectivity

/// The delegate callbacks a snapshot refresh produces (`SessionSnapshot.callbacks(to:role:)`), as a table.
@Suite("SessionSnapshot")
struct SessionSnapshotTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let from: SessionSnapshot
        let to: SessionSnapshot
        let role: Role
        let callbacks: [SessionSnapshot.Callback]
        var testDescription: String { "\(role) \(from) -> \(to)" }
    }

    static let none = SessionSnapshot(counterpartInstalled: false, reachable: false)
    static let installed = SessionSnapshot(counterpartInstalled: true, reachable: false)
    static let reachable = SessionSnapshot(counterpartInstalled: true, reachable: true)
    static let reachableOnly = SessionSnapshot(counterpartInstalled: false, reachable: true)
    static let complication = SessionSnapshot(counterpartInstalled: true, reachable: false, complicationEnabled: true)

    static let table: [Row] = [
        // No change: no callback.
        Row(from: none, to: none, role: .phone, callbacks: []),
        Row(from: reachable, to: reachable, role: .watch, callbacks: []),
        // Installation: the side's own callback.
        Row(from: none, to: installed, role: .phone, callbacks: [.watchStateDidChange]),
        Row(from: installed, to: none, role: .phone, callbacks: [.watchStateDidChange]),
        Row(from: none, to: installed, role: .watch, callbacks: [.companionAppInstalledDidChange]),
        Row(from: installed, to: none, role: .watch, callbacks: [.companionAppInstalledDidChange]),
        // Reachability alone.
        Row(from: installed, to: reachable, role: .phone, callbacks: [.reachabilityDidChange]),
        Row(from: reachable, to: installed, role: .watch, callbacks: [.reachabilityDidChange]),
        // Both: installation first, then reachability.
        Row(from: none, to: reachable, role: .phone, callbacks: [.watchStateDidChange, .reachabilityDidChange]),
        Row(from: reachable, to: none, role: .watch, callbacks: [.companionAppInstalledDidChange, .reachabilityDidChange]),
        Row(from: reachableOnly, to: installed, role: .phone, callbacks: [.watchStateDidChange, .reachabilityDidChange]),
        // The watch's complication: a watch-state change on the phone; the watch has no such callback.
        Row(from: installed, to: complication, role: .phone, callbacks: [.watchStateDidChange]),
        Row(from: complication, to: installed, role: .phone, callbacks: [.watchStateDidChange]),
        Row(from: installed, to: complication, role: .watch, callbacks: []),
        Row(from: complication, to: none, role: .phone, callbacks: [.watchStateDidChange]),
    ]

    @Test("a change of the snapshot produces the side's callbacks, installation first", arguments: table)
    func callbacks(_ row: Row) {
        #expect(row.from.callbacks(to: row.to, role: row.role) == row.callbacks)
    }

    @Test("installed from the record and the unit, not from listening (device off); never reachable when not installed")
    func fromStatus() {
        func snapshot(listening: Bool, record: Bool = true, unit: UnitFileState? = nil, link: String, reachable: Bool) -> SessionSnapshot {
            SessionSnapshot(
                link: link, reachable: reachable,
                presence: PeerPresence(listening: listening, running: false, installation: AppInstallation(installed: record), unitFileState: unit))
        }
        #expect(snapshot(listening: false, link: "disconnected", reachable: false) == Self.installed, "device off")
        #expect(snapshot(listening: true, link: "disconnected", reachable: false) == Self.installed)
        #expect(snapshot(listening: true, link: "connected", reachable: true) == Self.reachable)
        #expect(snapshot(listening: true, record: false, link: "disconnected", reachable: false) == Self.none, "uninstalled")
        #expect(snapshot(listening: true, unit: .masked, link: "connected", reachable: true) == Self.none, "masked")
        #expect(snapshot(listening: false, unit: .notFound, link: "disconnected", reachable: false) == Self.none, "no unit file")
        #expect(snapshot(listening: false, unit: .disabled, link: "disconnected", reachable: false) == Self.installed, "disabled: device off")
    }
}
