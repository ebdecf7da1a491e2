import Foundation
import Testing
import WatchPairCore
import WatchPairQuirks
import WatchPairTesting
import WatchPairWire

/// The quirks of background content and installation, in the engine (docs/Quirks.md): userInfo and
/// context delivery to the app, transfers stuck at the sender, the peer app flapping at launch.
@Suite("quirks: delivery and installation", .timeLimit(.minutes(3)))
struct QuirkDeliveryTests {
    @Test("duplicateUserInfo: the app is given the transfer twice")
    func duplicateUserInfo() async throws {
        let pair = try EnginePair(.inMemory)
        let phone = try await pair.start(.phone)
        let watch = try await pair.start(.watch)
        await watch.setQuirk(.duplicateUserInfo, try QuirkSetting(count: 1))
        let events = watch.diagnostics.subscribe()
        let sent = try await phone.transferUserInfo(["n": .integer(1)])
        try await until("received", on: watch.appSignal) { await watch.status().inboxPending == 1 }
        let given = try await watch.pendingUserInfo()
        #expect(given.map(\.transferId) == [sent.transferId, sent.transferId])
        let injected = try await events.first(.quirkInjected)
        #expect(injected.fields[.quirk] == .string("duplicateUserInfo") && injected.transferId == sent.transferId)
        // Spent: read again, it is there once.
        #expect(try await watch.pendingUserInfo().count == 1)
        await pair.tearDown()
    }

    @Test("contextReplay: at the next activation the context the app had is given again")
    func contextReplay() async throws {
        let pair = try EnginePair(.inMemory, configure: { if $0.role == .watch { $0.quirks = [.contextReplay: .always] } })
        let phone = try await pair.start(.phone)
        let watch = try await pair.start(.watch)
        try await phone.updateApplicationContext(["mode": .string("run")])
        try await until("context received", on: watch.appSignal) { (try? await watch.pendingContext()) != nil }
        let context = try #require(try await watch.pendingContext())
        try await watch.acknowledgeContext(version: context.version)
        #expect(try await watch.pendingContext() == nil)
        // The first activation had no context: no opportunity then.
        #expect(await watch.quirkStatuses.map(\.opportunities) == [0])
        await pair.stop(.watch)
        let again = try await pair.start(.watch)
        #expect(try await again.pendingContext()?.payload == ["mode": .string("run")])
        #expect(await again.quirkStatuses.map(\.injections) == [1])
        try await again.acknowledgeContext(version: context.version)
        #expect(try await again.pendingContext() == nil)
        await pair.tearDown()
    }

    @Test("stuckUserInfo: a transfer stays outstanding until the next one releases it, in order")
    func stuckUserInfo() async throws {
        let pair = try EnginePair(.inMemory)
        let (watch, phone) = try await pair.startLinked(watchHandler: MessageHandler(variants: [.dictionaryWithReply]) { .success($0.body) })
        await phone.setQuirk(.stuckUserInfo, try QuirkSetting(count: 1))
        let first = try await phone.transferUserInfo(["n": .integer(1)])
        // Round trips on the same link: the pump had every chance to send the first transfer.
        for _ in 0..<3 { _ = try await phone.sendMessage(.dictionary([:]), wantsReply: true) }
        #expect(await phone.status().outstandingTransfers == 1)
        #expect(try await watch.pendingUserInfo().isEmpty)
        let second = try await phone.transferUserInfo(["n": .integer(2)])
        try await until("both received", on: watch.appSignal) { ((try? await watch.pendingUserInfo()) ?? []).count == 2 }
        #expect(try await watch.pendingUserInfo().map(\.transferId) == [first.transferId, second.transferId])
        await pair.tearDown()
    }

    @Test("delayedDelivery: userInfo reaches the app after the delay, in order; context too")
    func delayedDelivery() async throws {
        let clock = ManualClock()
        let pair = try EnginePair(.inMemory, clock: clock)
        let (watch, phone) = try await pair.startLinked(watchHandler: MessageHandler(variants: [.dictionaryWithReply]) { .success($0.body) })
        // Only the first transfer is held: the second, not delayed, must still wait behind it.
        await watch.setQuirk(.delayedDelivery, try QuirkSetting(count: 1, delay: .seconds(5) ... .seconds(5)))
        let first = try await phone.transferUserInfo(["n": .integer(1)])
        let second = try await phone.transferUserInfo(["n": .integer(2)])
        try await until("both stored", on: watch.appSignal) { await watch.status().inboxPending == 2 }
        #expect(try await watch.pendingUserInfo().isEmpty)
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(5))
        try await until("released", on: watch.appSignal) { ((try? await watch.pendingUserInfo()) ?? []).count == 2 }
        #expect(try await watch.pendingUserInfo().map(\.transferId) == [first.transferId, second.transferId])

        await watch.setQuirk(.delayedDelivery, try QuirkSetting(delay: .seconds(3) ... .seconds(3)))
        let events = watch.diagnostics.subscribe()
        try await phone.updateApplicationContext(["v": .integer(1)])
        _ = try await events.first(.quirkInjected) { $0.channel == .applicationContext }
        #expect(try await watch.pendingContext() == nil)
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(3))
        try await until("context released", on: watch.appSignal) { (try? await watch.pendingContext()) != nil }
        await pair.tearDown()
    }

    @Test("delayedDelivery: a received file reaches the app after the delay")
    func delayedFile() async throws {
        let clock = ManualClock()
        let pair = try EnginePair(.inMemory, clock: clock)
        let (watch, phone) = try await pair.startLinked(watchHandler: MessageHandler(variants: [.dictionaryWithReply]) { .success($0.body) })
        await watch.setQuirk(.delayedDelivery, try QuirkSetting(delay: .seconds(4) ... .seconds(4)))
        let events = watch.diagnostics.subscribe()
        let path = pair.directory + "/track.bin"
        try Data(repeating: 7, count: 1000).write(to: URL(fileURLWithPath: path))
        let accepted = try await phone.transferFile(at: path, metadata: nil)
        let injected = try await events.first(.quirkInjected) { $0.channel == .file }
        #expect(injected.transferId == accepted.transferId)
        #expect(try await watch.pendingFiles().isEmpty)
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(4))
        try await until("file released", on: watch.appSignal) { ((try? await watch.pendingFiles()) ?? []).count == 1 }
        await pair.tearDown()
    }

    @Test("installedFlapping: the phone reads the watch app not installed for the delay after launch")
    func installedFlapping() async throws {
        let clock = ManualClock()
        let pair = try EnginePair(
            .inMemory, clock: clock,
            configure: { if $0.role == .phone { $0.quirks = [.installedFlapping: try! QuirkSetting(delay: .seconds(2) ... .seconds(2))] } })
        let phone = try await pair.start(.phone)
        #expect(await phone.status().peerInstalled == false)
        #expect(await phone.peerWatchState.installed == false)
        let events = phone.diagnostics.subscribe()
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(2))
        let changed = try await events.first(.watchStateChanged)
        #expect(changed.message.contains("installed (was not installed)"))
        #expect(await phone.status().peerInstalled)
        // Content was never refused meanwhile: refusals follow the real state.
        _ = try await phone.transferUserInfo(["n": .integer(1)])
        await pair.tearDown()
    }

    @Test("clearing a quirk releases what it held at once")
    func clearReleases() async throws {
        let clock = ManualClock()
        let pair = try EnginePair(.inMemory, clock: clock)
        let (watch, phone) = try await pair.startLinked(watchHandler: MessageHandler(variants: [.dictionaryWithReply]) { .success($0.body) })
        await watch.setQuirk(.delayedDelivery, try QuirkSetting(delay: .seconds(60) ... .seconds(60)))
        _ = try await phone.transferUserInfo(["n": .integer(1)])
        try await until("stored", on: watch.appSignal) { await watch.status().inboxPending == 1 }
        #expect(try await watch.pendingUserInfo().isEmpty)
        await watch.clearQuirk(.delayedDelivery)
        #expect(try await watch.pendingUserInfo().count == 1)
        await pair.tearDown()
    }
}
