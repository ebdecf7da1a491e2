import Foundation
import KeyedSync
import Testing

@Suite("keyed sync: the ledger machine")
struct SyncLedgerTests {
    static func json(_ text: String) -> Data { Data(text.utf8) }

    static func ledger(_ keys: [String: SyncKeyOptions], side: SyncSide = .phone) -> SyncLedger {
        var ledger = SyncLedger(side: side, maxAutoSyncSize: 8)
        for (key, options) in keys.sorted(by: { $0.key < $1.key }) { _ = ledger.event(.register(key, options)) }
        return ledger
    }

    @Test("an automatic change is sent at once, with every published key, and confirmed")
    func automatic() {
        var ledger = Self.ledger(["a": SyncKeyOptions(), "b": SyncKeyOptions()])
        let first = ledger.event(.set("a", Self.json("1")))
        #expect(first.send?.map(\.key) == ["a"])
        #expect(first.persist)
        let second = ledger.event(.set("b", Self.json("2")))
        #expect(second.send?.map(\.key) == ["a", "b"], "the context replaces the last one: a snapshot holds every key")
        #expect(ledger.records["a"]?.needSync == true)
        let confirmed = ledger.event(.confirmed(second.send!, at: 42))
        #expect(ledger.records["a"]?.needSync == false)
        #expect(ledger.records["b"]?.lastSyncTime == 42)
        #expect(confirmed.notes.count == 2)
    }

    @Test("a confirmation of an older revision leaves a newer change needing a sync")
    func staleConfirmation() {
        var ledger = Self.ledger(["a": SyncKeyOptions()])
        let old = ledger.event(.set("a", Self.json("1"))).send!
        _ = ledger.event(.set("a", Self.json("2")))
        _ = ledger.event(.confirmed(old, at: 1))
        #expect(ledger.records["a"]?.needSync == true)
        #expect(ledger.records["a"]?.lastSyncTime == nil)
    }

    @Test("a manual change waits until the app asks")
    func manual() {
        var ledger = Self.ledger(["m": SyncKeyOptions(policy: .manual), "a": SyncKeyOptions()])
        #expect(ledger.event(.set("m", Self.json("\"big value\""))).send == nil)
        #expect(ledger.records["m"]?.needSync == true)
        let other = ledger.event(.set("a", Self.json("1")))
        #expect(other.send?.map(\.key) == ["a"], "an unasked manual change is not published by another key's push")
        let asked = ledger.event(.syncRequested(.key("m")))
        #expect(asked.send?.map(\.key) == ["a", "m"])
        _ = ledger.event(.confirmed(asked.send!, at: 5))
        #expect(ledger.event(.syncRequested(.key("m"))).send == nil, "nothing needs a sync: nothing is sent")
        #expect(ledger.event(.syncRequested(.snapshot)).send?.map(\.key) == ["a", "m"], "a snapshot sends all")
    }

    @Test("a value over maxAutoSyncSize under automaticSmall is not sent, and says why")
    func tooLarge() {
        var ledger = Self.ledger(["a": SyncKeyOptions()])
        _ = ledger.event(.set("a", Self.json("1")))
        let action = ledger.event(.set("a", Self.json("\"123456789\"")))
        #expect(action.send == nil)
        #expect(action.notes == [.notSent(key: "a", .tooLarge(size: 11, limit: 8))])
        #expect(ledger.records["a"]?.blocked == .tooLarge(size: 11, limit: 8))
        #expect(ledger.event(.syncRequested(.snapshot)).send == nil, "the held value may not go")
    }

    @Test("received values: newer wins, older and equal are ignored, the counter moves past them")
    func ordering() {
        var watch = Self.ledger(["k": SyncKeyOptions(availability: .phoneWithWatchSync)], side: .watch)
        let v3 = SyncEntry(key: "k", revision: SyncRevision(counter: 3, writer: .phone), value: Self.json("3"))
        let v2 = SyncEntry(key: "k", revision: SyncRevision(counter: 2, writer: .phone), value: Self.json("2"))
        #expect(watch.event(.received([v3], at: 1)).applied == [v3])
        let late = watch.event(.received([v2], at: 2))
        #expect(late.applied.isEmpty)
        #expect(late.notes == [.ignoredOlder(key: "k", received: v2.revision, held: v3.revision)])
        #expect(watch.event(.received([v3], at: 3)).applied.isEmpty, "a repeat changes nothing")
        #expect(watch.records["k"]?.value == Self.json("3"))
        // The watch's own change of a phone-owned key stays local, with a revision after what it saw.
        let local = watch.event(.set("k", Self.json("9")))
        #expect(local.send == nil)
        #expect(watch.records["k"]?.revision == SyncRevision(counter: 4, writer: .watch))
    }

    @Test("the watch's own changes of a phone-owned key never hold back the phone's next one", arguments: [1, 2, 5])
    func phoneOwnedLocalChanges(localChanges: Int) {
        var watch = Self.ledger(["k": SyncKeyOptions(availability: .phoneWithWatchSync)], side: .watch)
        let first = SyncEntry(key: "k", revision: SyncRevision(counter: 1, writer: .phone), value: Self.json("1"))
        #expect(watch.event(.received([first], at: 1)).applied == [first])
        for n in 0..<localChanges { _ = watch.event(.set("k", Self.json("\(100 + n)"))) }
        #expect(watch.records["k"]?.revision == SyncRevision(counter: UInt64(1 + localChanges), writer: .watch))
        // The phone knows nothing of the watch's changes: its next revision is 2.
        let next = SyncEntry(key: "k", revision: SyncRevision(counter: 2, writer: .phone), value: Self.json("2"))
        #expect(watch.event(.received([next], at: 2)).applied == [next])
        #expect(watch.records["k"]?.value == Self.json("2"))
        // Older values of the phone's still lose, with or without a local change in between.
        _ = watch.event(.set("k", Self.json("9")))
        let late = watch.event(.received([first], at: 3))
        #expect(late.notes == [.ignoredOlder(key: "k", received: first.revision, held: next.revision)])
        #expect(watch.records["k"]?.value == Self.json("9"))
    }

    @Test("setting a key back to an earlier value still makes a new revision")
    func setBack() {
        var ledger = Self.ledger(["a": SyncKeyOptions()])
        let first = ledger.event(.set("a", Self.json("1"))).send!
        _ = ledger.event(.set("a", Self.json("2")))
        let back = ledger.event(.set("a", Self.json("1"))).send!
        #expect(back[0].value == first[0].value)
        #expect(back != first, "the context differs, so the identical-context rule cannot swallow it")
    }

    @Test("a key the receiver has not registered is kept and reported, then held once registered")
    func unknownKey() {
        var watch = Self.ledger([:], side: .watch)
        let entry = SyncEntry(key: "new", revision: SyncRevision(counter: 1, writer: .phone), value: Self.json("1"))
        let action = watch.event(.received([entry], at: 1))
        #expect(action.applied.isEmpty)
        #expect(action.notes == [.unknownKey(key: "new", revision: entry.revision)])
        _ = watch.event(.register("new", SyncKeyOptions()))
        #expect(watch.records["new"]?.value == Self.json("1"))
    }

    @Test("a key this app does not share ignores the peer's value")
    func notShared() {
        var watch = Self.ledger(["w": SyncKeyOptions(availability: .watchOnly)], side: .watch)
        let entry = SyncEntry(key: "w", revision: SyncRevision(counter: 1, writer: .phone), value: Self.json("1"))
        #expect(watch.event(.received([entry], at: 1)).notes == [.notShared(key: "w")])
        #expect(watch.records["w"]?.value == nil)
    }

    @Test("keys needing a sync are sent together; a received value is republished")
    func needing() {
        var phone = Self.ledger(["a": SyncKeyOptions(), "m": SyncKeyOptions(policy: .manual)])
        _ = phone.event(.set("a", Self.json("1")))
        _ = phone.event(.set("m", Self.json("2")))
        #expect(phone.event(.syncRequested(.needing)).send?.map(\.key) == ["a", "m"])
        let fromWatch = SyncEntry(key: "a", revision: SyncRevision(counter: 7, writer: .watch), value: Self.json("7"))
        _ = phone.event(.received([fromWatch], at: 1))
        #expect(phone.event(.syncRequested(.snapshot)).send?.first == fromWatch)
    }

    @Test("a trigger does not send again the snapshot the push in flight carries; the handshake is answered with it")
    func triggerWhilePushInFlight() {
        var phone = Self.ledger(["a": SyncKeyOptions(), "b": SyncKeyOptions()])
        _ = phone.event(.set("a", Self.json("1")))
        let pushed = phone.event(.set("b", Self.json("2"))).send!
        #expect(phone.pushing == pushed, "what is sent is in flight")
        // The watch comes back (reachability) and asks for the snapshot (its handshake) before confirming.
        let reachable = phone.event(.triggered(.needing))
        #expect(reachable.send == nil)
        #expect(reachable.inFlight == pushed)
        #expect(reachable.notes.isEmpty, "nothing sent: no syncSent")
        let handshake = phone.event(.triggered(.snapshot))
        #expect(handshake.send == nil)
        #expect(handshake.inFlight == pushed, "the answer carries the snapshot all the same")
        // The app's own request still sends (and waits for its own confirmation).
        #expect(phone.event(.syncRequested(.needing)).send == pushed)
        // An older push's end leaves the newest in flight.
        _ = phone.event(.pushEnded(Array(pushed.prefix(1))))
        #expect(phone.event(.triggered(.needing)).send == nil)
        // A change makes a different snapshot: it is sent.
        let changed = phone.event(.set("a", Self.json("3"))).send
        #expect(changed?.map(\.value) == [Self.json("3"), Self.json("2")])
        #expect(phone.pushing == changed)
    }

    @Test("once the push in flight ended, or its context may not reach the peer, a trigger sends again")
    func triggerAfterPushEnded() {
        var phone = Self.ledger(["a": SyncKeyOptions()])
        let pushed = phone.event(.set("a", Self.json("1"))).send!
        #expect(phone.event(.triggered(.needing)).send == nil)
        _ = phone.event(.pushEnded(pushed))
        #expect(phone.pushing == nil)
        #expect(phone.event(.triggered(.needing)).send == pushed, "unconfirmed and nothing in flight: pushed again")
        _ = phone.event(.pushEnded(nil))
        #expect(phone.event(.triggered(.needing)).send == pushed, "forgotten (deactivated): pushed again")
        _ = phone.event(.confirmed(pushed, at: 1))
        _ = phone.event(.pushEnded(pushed))
        #expect(phone.event(.triggered(.needing)).send == nil, "confirmed: nothing needs a sync")
        #expect(phone.event(.triggered(.snapshot)).send == pushed, "a handshake after it gets a push")
    }
}
