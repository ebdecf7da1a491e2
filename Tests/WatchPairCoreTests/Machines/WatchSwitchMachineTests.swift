@testable import WatchPairCore
import Testing
import WatchPairWire

/// docs/Watches.md: a phone with several watches, switching as Apple's devices do it (inactive while the
/// old watch's queue drains, then deactivated; the app re-activates and is bound to the new watch).
@Suite("watch switch machine")
struct WatchSwitchMachineTests {
    typealias Machine = WatchSwitchMachine

    /// Watches `a` and `b`, both paired, `a` active; the session as given.
    static func phone(active: String? = "a", activated: Bool = true) -> Machine {
        var machine = Machine(watches: [PhoneWatch(name: "a"), PhoneWatch(name: "b")], active: active)
        if activated { _ = try? machine.event(.activate) }
        return machine
    }

    @Test("the whole sequence: a switch, the old queue drains, the app re-activates and is bound to the new watch")
    func wholeSequence() throws {
        var machine = Machine(watches: [PhoneWatch(name: "a"), PhoneWatch(name: "b")])
        #expect(machine.active == "a")
        #expect(machine.session == .notActivated)
        #expect(try machine.event(.newContent) == [.refuse(WCFailure(.sessionNotActivated, "the session is not activated: call activate()"))])
        #expect(try machine.event(.activate) == [.bind("a")])
        #expect(try machine.event(.newContent) == [.accept("a")])

        #expect(try machine.event(.switchTo("b")) == [.reportInactive])
        #expect(machine.session == .inactive(from: "a"))
        #expect(machine.active == "b")
        #expect(machine.bound == "a")
        // New content is refused with 7016 while the old watch drains.
        #expect(try machine.event(.newContent) == [.refuse(WCFailure(.sessionInactive, "the session is inactive: switching away from watch 'a'"))])
        // activate() while inactive is ignored, as on Apple's devices.
        #expect(try machine.event(.activate) == [])
        #expect(try machine.event(.drained("a")) == [.close("a"), .reportDeactivated])
        #expect(machine.session == .notActivated)
        #expect(machine.bound == nil)
        #expect(try machine.event(.activate) == [.bind("b")])
        #expect(try machine.event(.newContent) == [.accept("b")])

        // And back: a's queue is a's again once it is active.
        #expect(try machine.event(.switchTo("a")) == [.reportInactive])
        #expect(try machine.event(.drained("b")) == [.close("b"), .reportDeactivated])
        #expect(try machine.event(.activate) == [.bind("a")])
        #expect(machine.session == .activated(watch: "a"))
    }

    @Test("an app that does not re-activate stays .notActivated and its sends fail")
    func noReactivation() throws {
        var machine = Self.phone()
        _ = try machine.event(.switchTo("b"))
        _ = try machine.event(.drained("a"))
        for _ in 0..<3 {
            #expect(try machine.event(.newContent) == [.refuse(WCFailure(.sessionNotActivated, "the session is not activated: call activate()"))])
            #expect(try machine.event(.drained("a")) == [])
            #expect(machine.session == .notActivated)
        }
    }

    @Test("one event per line", arguments: [
        // (active, activated, event, actions, active after, session after)
        // Switching to the already-active watch changes nothing.
        SwitchRow("a", true, .switchTo("a"), [], "a", .activated(watch: "a")),
        SwitchRow("a", false, .switchTo("a"), [], "a", .notActivated),
        // A switch before the app activated: nothing to report; activate() binds the new watch.
        SwitchRow("a", false, .switchTo("b"), [], "b", .notActivated),
        // Unpairing the active watch: inactive and deactivated at once, its queue dropped.
        SwitchRow("a", true, .unpair("a"), [.reportInactive, .close("a"), .dropQueue("a"), .reportDeactivated], nil, .notActivated),
        // Unpairing another watch only drops its queue.
        SwitchRow("a", true, .unpair("b"), [.dropQueue("b")], "a", .activated(watch: "a")),
        SwitchRow("a", false, .unpair("a"), [.dropQueue("a")], nil, .notActivated),
        // A drain report for a watch the session is not leaving is ignored.
        SwitchRow("a", true, .drained("a"), [], "a", .activated(watch: "a")),
        SwitchRow("a", true, .drained("b"), [], "a", .activated(watch: "a")),
        // Pairing a paired watch changes nothing.
        SwitchRow("a", true, .pair("b"), [], "a", .activated(watch: "a")),
        // The bound watch's app uninstalled: sessionWatchStateDidChange; another watch's: nothing.
        SwitchRow("a", true, .installation("a", installed: false), [.watchStateChanged], "a", .activated(watch: "a")),
        SwitchRow("a", true, .installation("b", installed: false), [], "a", .activated(watch: "a")),
        SwitchRow("a", true, .installation("a", installed: true), [], "a", .activated(watch: "a")),
        SwitchRow("a", true, .activate, [], "a", .activated(watch: "a")),
        // The activation ended (the app exited, the host failed): not activated, the active watch unchanged.
        SwitchRow("a", true, .activationEnded, [], "a", .notActivated),
        SwitchRow("a", false, .activationEnded, [], "a", .notActivated),
    ])
    func table(row: SwitchRow) throws {
        var machine = Self.phone(active: row.active, activated: row.activated)
        #expect(try machine.event(row.event) == row.actions)
        #expect(machine.active == row.activeAfter)
        #expect(machine.session == row.sessionAfter)
    }

    @Test("errors: an unknown watch, a watch not paired, a switch in progress; a failed event changes nothing", arguments: [
        SwitchErrorRow(.switchTo("c"), .invalidParameter, "unknown watch 'c': the phone's watches are a, b"),
        SwitchErrorRow(.pair("c"), .invalidParameter, "unknown watch 'c': the phone's watches are a, b"),
        SwitchErrorRow(.unpair("c"), .invalidParameter, "unknown watch 'c': the phone's watches are a, b"),
        SwitchErrorRow(.installation("c", installed: true), .invalidParameter, "unknown watch 'c': the phone's watches are a, b"),
    ])
    func unknownWatch(row: SwitchErrorRow) {
        var machine = Self.phone()
        let before = machine
        #expect(throws: WCFailure(row.code, row.message)) { try machine.event(row.event) }
        #expect(machine == before)
    }

    @Test("a switch to or an unpair of a watch that is not paired fails with 7005")
    func notPaired() throws {
        var machine = Self.phone()
        _ = try machine.event(.unpair("b"))
        let before = machine
        #expect(throws: WCFailure(.deviceNotPaired, "watch 'b' is not paired: pair it first")) { try machine.event(.switchTo("b")) }
        #expect(throws: WCFailure(.deviceNotPaired, "watch 'b' is not paired: pair it first")) { try machine.event(.unpair("b")) }
        #expect(machine == before)
        #expect(machine.watch("b")?.paired == false)
    }

    @Test("a switch while a switch is in progress fails with 7016")
    func switchInProgress() throws {
        var machine = Self.phone()
        _ = try machine.event(.switchTo("b"))
        let before = machine
        let busy = WCFailure(.sessionInactive, "a switch from watch 'a' is in progress: wait until the session is deactivated")
        #expect(throws: busy) { try machine.event(.switchTo("a")) }
        #expect(throws: busy) { try machine.event(.switchTo("b")) }
        #expect(machine == before)
    }

    @Test("unpairing the active watch: no watch active; re-activating gives isPaired false; pairing or switching binds again")
    func unpairActive() throws {
        var machine = Self.phone()
        #expect(try machine.event(.unpair("a")) == [.reportInactive, .close("a"), .dropQueue("a"), .reportDeactivated])
        #expect(try machine.event(.activate) == [.bind(nil)])
        #expect(try machine.event(.newContent) == [.refuse(WCFailure(.deviceNotPaired, "no watch is paired and active"))])
        #expect(try machine.event(.switchTo("b")) == [.bind("b"), .watchStateChanged])
        #expect(machine.session == .activated(watch: "b"))

        // Unpair b too, then pair a again: it becomes active and the session binds to it.
        _ = try machine.event(.unpair("b"))
        _ = try machine.event(.activate)
        #expect(try machine.event(.pair("a")) == [.bind("a"), .watchStateChanged])
        #expect(machine.active == "a")
        #expect(try machine.event(.newContent) == [.accept("a")])
    }

    @Test("unpairing the watch being switched away from ends the switch; its queue is dropped, not drained")
    func unpairDraining() throws {
        var machine = Self.phone()
        _ = try machine.event(.switchTo("b"))
        #expect(try machine.event(.unpair("a")) == [.close("a"), .dropQueue("a"), .reportDeactivated])
        #expect(try machine.event(.drained("a")) == [])
        #expect(try machine.event(.activate) == [.bind("b")])
    }

    @Test("pairing while another watch is active waits for a switch")
    func pairWhileActive() throws {
        var machine = Self.phone()
        _ = try machine.event(.unpair("b"))
        #expect(try machine.event(.pair("b")) == [])
        #expect(machine.active == "a")
        #expect(try machine.event(.switchTo("b")) == [.reportInactive])
    }

    @Test("the initial active watch: the one named when paired, else the first paired")
    func initialActive() {
        let watches = [PhoneWatch(name: "a", paired: false), PhoneWatch(name: "b"), PhoneWatch(name: "c")]
        #expect(Machine(watches: watches).active == "b")
        #expect(Machine(watches: watches, active: "c").active == "c")
        #expect(Machine(watches: watches, active: "a").active == "b")
        #expect(Machine(watches: []).active == nil)
    }
}

/// A row of ``WatchSwitchMachineTests/table(row:)``.
struct SwitchRow: Sendable, CustomTestStringConvertible {
    var active: String?
    var activated: Bool
    var event: WatchSwitchMachine.Event
    var actions: [WatchSwitchMachine.Action]
    var activeAfter: String?
    var sessionAfter: WatchSwitchMachine.Session

    init(_ active: String?, _ activated: Bool, _ event: WatchSwitchMachine.Event, _ actions: [WatchSwitchMachine.Action], _ activeAfter: String?, _ sessionAfter: WatchSwitchMachine.Session) {
        (self.active, self.activated, self.event, self.actions, self.activeAfter, self.sessionAfter) = (active, activated, event, actions, activeAfter, sessionAfter)
    }

    var testDescription: String { "\(activated ? "activated" : "not activated"), \(active ?? "none") active: \(event)" }
}

/// A row of ``WatchSwitchMachineTests/unknownWatch(row:)``.
struct SwitchErrorRow: Sendable, CustomTestStringConvertible {
    var event: WatchSwitchMachine.Event
    var code: WCErrorCode
    var message: String

    init(_ event: WatchSwitchMachine.Event, _ code: WCErrorCode, _ message: String) {
        (self.event, self.code, self.message) = (event, code, message)
    }

    var testDescription: String { "\(event)" }
}
