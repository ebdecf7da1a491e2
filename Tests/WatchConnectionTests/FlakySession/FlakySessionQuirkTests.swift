import Foundation
import Testing
import WatchConnection
import WatchConnectionTesting
import WatchPairTesting

/// The ten quirks on FlakySession, each with its meaning (docs/Quirks.md), on a manual clock.
@Suite("FlakySession: the quirks", .timeLimit(.minutes(3)))
struct FlakySessionQuirkTests {
    @Test("phantomReachability: isReachable reads true over a dead link, and a send fails 7007 unseen by the peer")
    func phantomReachability() {
        let link = FlakyLink(phone: (.phantomReachability, .always))
        link.phone.setReachable(false)
        #expect(link.phone.isReachable && !link.watch.isReachable)
        let outcomes = Outcomes()
        outcomes.send(["n": "1"], on: link.phone)
        #expect(outcomes.all == [.error(7007)])
        #expect(link.watchSeen.messages.isEmpty)
        #expect(link.phone.quirkInjections.map(\.quirk) == [.phantomReachability])
    }

    @Test("asymmetricReachability: the link comes back, the phone reads it not reachable, the watch reaches the phone")
    func asymmetricReachability() throws {
        let link = FlakyLink()
        // Set after activation, which (the link being reachable) is an opportunity too.
        link.phone.setQuirk(.asymmetricReachability, try QuirkSetting(count: 1))
        link.phone.setReachable(false)
        link.phone.setReachable(true)
        #expect(!link.phone.isReachable && link.watch.isReachable)
        let fromPhone = Outcomes()
        fromPhone.send(["n": "1"], on: link.phone)
        #expect(fromPhone.all == [.error(7007)])
        let fromWatch = Outcomes()
        fromWatch.send(["n": "2"], on: link.watch)
        #expect(fromWatch.all == [.reply(["answer": "2"])])
        link.phone.setReachable(false)
        link.phone.setReachable(true)
        #expect(link.phone.isReachable, "the next change ends it (count 1: spent)")
    }

    @Test("lateReply: 7012 at the reply timeout; the reply comes after and is dropped, never a second outcome")
    func lateReply() async throws {
        let link = FlakyLink(phone: (.lateReply, try FlakyLink.held(1)))
        let outcomes = Outcomes()
        outcomes.send(["n": "1"], on: link.phone)
        #expect(link.watchSeen.messages == [["n": "1"]], "the receiver ran")
        #expect(outcomes.all.isEmpty)
        await link.advance(by: .milliseconds(9999))
        #expect(outcomes.all.isEmpty)
        await link.advance(by: .milliseconds(1))
        await link.until { !outcomes.all.isEmpty }
        #expect(outcomes.all == [.error(7012)])
        await link.advance(by: .seconds(1))
        await link.until { link.phone.droppedLateReplies == 1 }
        #expect(outcomes.all == [.error(7012)])
    }

    @Test("replyAndError: the reply handler, then the error handler with 7012, for one message")
    func replyAndError() {
        let link = FlakyLink(phone: (.replyAndError, .always))
        let outcomes = Outcomes()
        outcomes.send(["n": "1"], on: link.phone)
        #expect(outcomes.all == [.reply(["answer": "1"]), .error(7012)])
    }

    @Test("lostReply: the receiver ran, nothing comes back until 7012 at the reply timeout")
    func lostReply() async {
        let link = FlakyLink(phone: (.lostReply, .always))
        link.phone.replyTimeout = .seconds(4)
        let outcomes = Outcomes()
        outcomes.send(["n": "1"], on: link.phone)
        #expect(link.watchSeen.messages.count == 1 && outcomes.all.isEmpty)
        await link.advance(by: .seconds(4))
        await link.until { !outcomes.all.isEmpty }
        #expect(outcomes.all == [.error(7012)])
    }

    @Test("duplicateUserInfo: set on the receiver, each userInfo reaches its app twice")
    func duplicateUserInfo() throws {
        let link = FlakyLink(watch: (.duplicateUserInfo, .always))
        try link.phone.transferUserInfo(["u": "1"])
        #expect(link.watchSeen.userInfos == [["u": "1"], ["u": "1"]])
    }

    @Test("contextReplay: at the next activation the last received context arrives again")
    func contextReplay() throws {
        let link = FlakyLink(watch: (.contextReplay, .always))
        try link.phone.updateApplicationContext(["k": "1"])
        #expect(link.watchSeen.contexts == [["k": "1"]])
        let relaunched = SessionRecorder(link.watch)
        #expect(relaunched.all == [.activated(true), .context(["k": "1"])])
    }

    @Test("stuckUserInfo: a transfer stays outstanding until the next one, which releases it first")
    func stuckUserInfo() throws {
        let link = FlakyLink(phone: (.stuckUserInfo, try QuirkSetting(count: 1)))
        try link.phone.transferUserInfo(["u": "1"])
        #expect(link.watchSeen.userInfos.isEmpty && link.phone.outstandingUserInfoTransfers == [["u": "1"]])
        try link.phone.transferUserInfo(["u": "2"])
        #expect(link.watchSeen.userInfos == [["u": "1"], ["u": "2"]])
    }

    @Test("stuckUserInfo: a re-activation (a restart of the sender) releases what was stuck")
    func stuckUntilRestart() throws {
        let link = FlakyLink(phone: (.stuckUserInfo, try QuirkSetting(count: 1)))
        try link.phone.transferUserInfo(["u": "1"])
        _ = SessionRecorder(link.phone)
        #expect(link.watchSeen.userInfos == [["u": "1"]])
    }

    @Test("asymmetricReachability: activation into a reachable link is an opportunity")
    func asymmetricAtActivation() {
        let link = FlakyLink(phone: (.asymmetricReachability, .always))
        #expect(!link.phone.isReachable && link.watch.isReachable)
    }

    @Test("installedFlapping: after activation the counterpart app reads not installed for the drawn delay")
    func installedFlapping() async throws {
        let link = FlakyLink(phone: (.installedFlapping, try FlakyLink.held(2)))
        #expect(!link.phone.isCounterpartAppInstalled)
        await link.advance(by: .milliseconds(1999))
        #expect(!link.phone.isCounterpartAppInstalled)
        await link.advance(by: .milliseconds(1))
        await link.until { link.phoneSeen.all.filter { $0 == .stateChanged }.count == 2 }
        #expect(link.phone.isCounterpartAppInstalled)
        #expect(link.phoneSeen.all.filter { $0 == .stateChanged }.count == 2, "both changes reported")
    }

    @Test("delayedDelivery: a delayed userInfo arrives after the delay, and a later one waits behind it (FIFO)")
    func delayedDelivery() async throws {
        let link = FlakyLink(watch: (.delayedDelivery, try FlakyLink.held(2, count: 1)))
        try link.phone.transferUserInfo(["u": "1"])
        try link.phone.transferUserInfo(["u": "2"])
        #expect(link.watchSeen.userInfos.isEmpty)
        await link.advance(by: .seconds(2))
        await link.until { link.watchSeen.userInfos.count == 2 }
        #expect(link.watchSeen.userInfos == [["u": "1"], ["u": "2"]])
    }

    @Test("seeded: the same seed gives the same injections; count bounds them; clearing stops them")
    func seeded() throws {
        func injections(seed: UInt64) throws -> [Int] {
            let link = FlakyLink(watch: (.duplicateUserInfo, try QuirkSetting(probability: 0.5, seed: seed)))
            for n in 0..<24 { try link.phone.transferUserInfo(["u": "\(n)"]) }
            return link.watchSeen.userInfos.map { Int($0["u"]!)! }
        }
        let first = try injections(seed: 1)
        #expect(first.count > 24 && first.count < 48)
        #expect(try injections(seed: 1) == first)
        #expect(try injections(seed: 2) != first)
        let link = FlakyLink(watch: (.duplicateUserInfo, try QuirkSetting(count: 2)))
        for n in 0..<4 { try link.phone.transferUserInfo(["u": "\(n)"]) }
        #expect(link.watchSeen.userInfos.count == 6)
        #expect(link.watch.quirkInjections.map(\.ordinal) == [1, 2])
        #expect(link.watch.quirkStatuses.first?.isSpent == true)
        link.watch.clearQuirk()
        #expect(link.watch.quirkStatuses.isEmpty)
    }

    @Test("every quirk off: nothing injected, nothing recorded", arguments: Quirk.allCases)
    func offByDefault(_ quirk: Quirk) throws {
        let link = FlakyLink()
        link.phone.setQuirk(quirk)
        link.phone.clearQuirk(quirk)
        try link.phone.transferUserInfo(["u": "1"])
        Outcomes().send(["n": "1"], on: link.phone)
        #expect(link.phone.quirkInjections.isEmpty)
        #expect(link.watchSeen.userInfos == [["u": "1"]] && link.watchSeen.messages == [["n": "1"]])
    }
}
