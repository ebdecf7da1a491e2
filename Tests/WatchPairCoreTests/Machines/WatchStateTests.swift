@testable import WatchPairCore
import Testing
import WatchPairWire

/// docs/Lifecycle.md: "device off" (nothing listens) apart from "app not installed" (its record, its socket unit).
@Suite("watch state")
struct WatchStateTests {
    @Test("installed from the record and the unit file, never from enablement, listening or running", arguments: [
        // (listening, running, record installed, unit file state) → installed
        (false, false, true, UnitFileState?.none, true),  // device off: still installed
        (true, true, true, nil, true),
        (true, true, false, nil, false),  // wcctl uninstall
        (false, false, false, nil, false),  // uninstalled and off
        (true, false, true, .enabled, true),
        (true, false, true, .disabled, true),  // started without being enabled: its socket launches the app
        (false, false, true, .disabled, true),  // disabled and stopped: device off, still installed
        (true, true, true, .masked, false),  // systemctl mask (a running unit still listens)
        (false, false, true, .notFound, false),  // no unit file where units install the apps
        (false, false, false, .enabled, false),
    ])
    func installed(listening: Bool, running: Bool, record: Bool, unit: UnitFileState?, expected: Bool) {
        let presence = PeerPresence(
            listening: listening, running: running, installation: AppInstallation(installed: record), unitFileState: unit)
        #expect(WatchState(presence).installed == expected)
    }

    @Test("content for an app that is not installed fails with 7006 on the phone, 7018 on the watch", arguments: [
        (Role.phone, false, WCErrorCode?.some(.watchAppNotInstalled)),
        (.watch, false, .companionAppNotInstalled),
        (.phone, true, nil),
        (.watch, true, nil),
    ])
    func refusal(role: Role, installed: Bool, expected: WCErrorCode?) {
        #expect(WatchState(installed: installed).refusal(role: role)?.code == expected)
    }

    @Test("sessionWatchStateDidChange on a change only: not at the first look, not for launches")
    func machine() {
        var machine = WatchStateMachine()
        let installed = WatchState(installed: true)
        let uninstalled = WatchState(installed: false)
        #expect(machine.event(probed: installed) == .none)  // activation
        #expect(machine.event(probed: WatchState(PeerPresence(listening: false, running: false))) == .none)  // device off
        #expect(machine.event(probed: WatchState(PeerPresence(listening: true, running: true))) == .none)  // launched
        #expect(machine.event(probed: uninstalled) == .changed(from: installed, to: uninstalled))
        #expect(machine.event(probed: uninstalled) == .none)
        #expect(machine.event(probed: installed) == .changed(from: uninstalled, to: installed))
        var fresh = WatchStateMachine()
        #expect(fresh.event(probed: uninstalled) == .none, "the first look is the starting state, not a change")
        #expect(fresh.current == uninstalled)
    }

    @Test("isComplicationEnabled: the record's flag, only while the app is installed", arguments: [
        // (record installed, complication enabled, unit) → complicationEnabled
        (true, true, UnitFileState?.none, true),
        (true, false, nil, false),
        (false, true, nil, false),
        (true, true, .masked, false),
        (true, true, .notFound, false),
        (true, true, .disabled, true),
    ])
    func complication(installed: Bool, enabled: Bool, unit: UnitFileState?, expected: Bool) {
        let presence = PeerPresence(
            listening: false, running: false, installation: AppInstallation(installed: installed, complicationEnabled: enabled),
            unitFileState: unit)
        #expect(WatchState(presence).complicationEnabled == expected)
    }

    @Test("a complication switched on or off is a watch-state change")
    func complicationChange() {
        var machine = WatchStateMachine()
        let plain = WatchState(installed: true)
        let withComplication = WatchState(installed: true, complicationEnabled: true)
        #expect(machine.event(probed: plain) == .none)
        #expect(machine.event(probed: withComplication) == .changed(from: plain, to: withComplication))
        #expect(machine.event(probed: plain) == .changed(from: withComplication, to: plain))
    }

    @Test("a peer app that is not installed is never reachable, linked for presence or launched to deliver")
    func linkPolicy() {
        let uninstalled = PeerPresence(listening: true, running: true, contentPending: true, installation: AppInstallation(installed: false))
        let masked = PeerPresence(listening: true, running: false, contentPending: true, unitFileState: .masked)
        #expect(!LinkPolicy.isReachable(role: .phone, linkedPeerLaunch: .foreground, linked: true, presence: uninstalled))
        #expect(!LinkPolicy.isReachable(role: .watch, linkedPeerLaunch: nil, linked: true, presence: uninstalled))
        #expect(!LinkPolicy.wantsPresenceLink(role: .phone, launch: .foreground, presence: uninstalled))
        #expect(!LinkPolicy.wantsDeliveryLink(presence: masked, refusingForSpace: false))
        var installed = masked
        installed.unitFileState = .enabled
        #expect(LinkPolicy.wantsDeliveryLink(presence: installed, refusingForSpace: false))
    }
}
