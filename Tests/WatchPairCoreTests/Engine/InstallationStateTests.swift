import Foundation
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairTransport
import WatchPairWire

/// docs/Lifecycle.md: "device off" (nothing listens: content queues, messages 7007, still installed) apart from
/// "app not installed" (uninstalled, or its socket unit disabled or masked: content fails at once with
/// 7006 / 7018, nothing queues). Each test runs in memory and over Unix sockets.
@Suite("installation state", .timeLimit(.minutes(3)))
struct InstallationStateTests {
    @Test("an uninstalled watch app: content fails at once with 7006 and nothing queues; reinstalled, it works",
          arguments: [TransportKind.inMemory, .unixSocket])
    func uninstalledWatch(kind: TransportKind) async throws {
        let pair = try EnginePair(kind)
        let phone = try await pair.start(.phone)
        let watch = try await pair.start(.watch)
        try await until("reachable", on: phone.stateSignal) { await phone.isReachable }
        let events = phone.diagnostics.subscribe()
        try await watch.setInstalled(false)
        try await until("the phone sees the watch app uninstalled", on: phone.stateSignal) {
            await !phone.peerWatchState.installed
        }
        #expect(await !phone.isReachable)
        await expectFailure(.watchAppNotInstalled) { _ = try await phone.transferUserInfo(["n": .integer(1)]) }
        await expectFailure(.watchAppNotInstalled) { _ = try await phone.updateApplicationContext(["n": .integer(1)]) }
        await expectFailure(.watchAppNotInstalled) { _ = try await phone.sendMessage(.dictionary(["n": .integer(1)]), wantsReply: false) }
        let status = await phone.status()
        #expect(status.outstandingTransfers == 0 && status.contextSentVersion == 0, "nothing queued: \(status)")
        #expect(!status.peerInstalled)
        let kinds = try await collect(events, until: { $0.contains(.messageFailed) })
        #expect(kinds.filter { $0 == .contentRefused }.count == 2, "\(kinds)")
        #expect(kinds.contains(.watchStateChanged) && kinds.contains(.messageFailed), "\(kinds)")

        try await watch.setInstalled(true)
        try await until("the phone sees the watch app installed again", on: phone.stateSignal) {
            await phone.peerWatchState.installed
        }
        _ = try await phone.transferUserInfo(["n": .integer(2)])
        try await until("delivered after the reinstall", on: watch.appSignal) {
            ((try? await watch.pendingUserInfo())?.count ?? 0) == 1
        }
        await pair.tearDown()
    }

    @Test("device off is not 'not installed': content queues, messages fail 7007, the app stays installed",
          arguments: [TransportKind.inMemory, .unixSocket])
    func deviceOff(kind: TransportKind) async throws {
        let pair = try EnginePair(kind)
        let phone = try await pair.start(.phone)
        try await pair.start(.watch)
        try await until("reachable", on: phone.stateSignal) { await phone.isReachable }
        await pair.stop(.watch)
        try await until("not reachable", on: phone.stateSignal) { await !phone.isReachable }
        #expect(await phone.peerWatchState.installed)
        _ = try await phone.transferUserInfo(["n": .integer(1)])
        await expectFailure(.notReachable) { _ = try await phone.sendMessage(.dictionary(["n": .integer(1)]), wantsReply: false) }
        let status = await phone.status()
        #expect(status.outstandingTransfers == 1 && status.peerInstalled && !status.peerListening, "\(status)")
        await pair.tearDown()
    }

    @Test("an uninstalled phone app: the watch's content fails at once with 7018",
          arguments: [TransportKind.inMemory, .unixSocket])
    func uninstalledPhone(kind: TransportKind) async throws {
        let pair = try EnginePair(kind)
        let phone = try await pair.start(.phone)
        let watch = try await pair.start(.watch)
        try await phone.setInstalled(false)
        try await until("the watch sees the phone app uninstalled", on: watch.stateSignal) {
            await !watch.peerWatchState.installed
        }
        await expectFailure(.companionAppNotInstalled) { _ = try await watch.transferUserInfo(["n": .integer(1)]) }
        await expectFailure(.companionAppNotInstalled) { _ = try await watch.sendMessage(.dictionary(["n": .integer(1)]), wantsReply: true) }
        #expect(await watch.status().outstandingTransfers == 0)
        #expect(await phone.status().installed == false)
        await pair.tearDown()
    }

    @Test("the record outlives the app: a watch uninstalled and stopped is still not installed for a phone that starts later",
          arguments: [TransportKind.inMemory, .unixSocket])
    func recordOutlivesApp(kind: TransportKind) async throws {
        let pair = try EnginePair(kind)
        let watch = try await pair.start(.watch)
        try await watch.setInstalled(false)
        await pair.stop(.watch)
        let phone = try await pair.start(.phone)
        #expect(await !phone.peerWatchState.installed)
        await expectFailure(.watchAppNotInstalled) { _ = try await phone.transferUserInfo(["n": .integer(1)]) }
        let restarted = try await pair.start(.watch)
        #expect(await restarted.installation == AppInstallation(installed: false), "the app reads its own record at start")
        await pair.tearDown()
    }

    @Test("the watch's complication reaches the phone through the record, also while the watch is stopped; only the watch sets it",
          arguments: [TransportKind.inMemory, .unixSocket])
    func complication(kind: TransportKind) async throws {
        let pair = try EnginePair(kind)
        let phone = try await pair.start(.phone)
        let watch = try await pair.start(.watch)
        #expect(await !phone.peerWatchState.complicationEnabled)
        try await watch.setComplicationEnabled(true)
        try await until("the phone sees the complication", on: phone.stateSignal) { await phone.peerWatchState.complicationEnabled }
        #expect(await phone.status().peerComplicationEnabled)
        await pair.stop(.watch)
        await pair.stop(.phone)
        let restarted = try await pair.start(.phone)
        #expect(await restarted.peerWatchState.complicationEnabled, "known while the watch app is not running")
        await expectFailure(.invalidParameter) { try await restarted.setComplicationEnabled(true) }
        await pair.tearDown()
    }

    @Test("a masked socket unit is not installed; unmasked, disabled or enabled, it is and content flows")
    func maskedUnit() async throws {
        let pair = try EnginePair(.unixSocket)
        let units = pair.unitConfigurationDirectory
        try FileManager.default.createDirectory(atPath: units + "/sockets.target.wants", withIntermediateDirectories: true)
        let unitFile = units + "/watchd.socket.file"
        _ = FileManager.default.createFile(atPath: unitFile, contents: Data())
        try FileManager.default.createSymbolicLink(atPath: units + "/sockets.target.wants/watchd.socket", withDestinationPath: unitFile)
        let phone = try await pair.start(.phone)
        #expect(await phone.status().peerUnitFileState == .enabled)
        #expect(await phone.peerWatchState.installed)
        // `systemctl mask watchd.socket`.
        try FileManager.default.createSymbolicLink(atPath: units + "/watchd.socket", withDestinationPath: "/dev/null")
        try await until("masked: not installed", on: phone.stateSignal) { await !phone.peerWatchState.installed }
        #expect(await phone.status().peerUnitFileState == .masked)
        await expectFailure(.watchAppNotInstalled) { _ = try await phone.transferUserInfo(["n": .integer(1)]) }
        // `systemctl unmask` and `disable`: a unit file and no link is disabled, which is installed (enablement
        // only says whether the socket listens from boot; a started socket launches the app). The wants link
        // goes first and the unit file replaces the mask in one rename.
        try FileManager.default.removeItem(atPath: units + "/sockets.target.wants/watchd.socket")
        #expect(rename(unitFile, units + "/watchd.socket") == 0)
        try await until("disabled: installed", on: phone.stateSignal) { await phone.peerWatchState.installed }
        #expect(await phone.status().peerUnitFileState == .disabled)
        _ = try await phone.transferUserInfo(["n": .integer(1)])
        // `systemctl enable`: still installed.
        try FileManager.default.createSymbolicLink(atPath: units + "/sockets.target.wants/watchd.socket", withDestinationPath: units + "/watchd.socket")
        let phoneView = pair.transport(for: .phone)
        let changes = phoneView.peerChanges()
        try await withTimeout(.seconds(60), "the unit is enabled") {
            var iterator = changes.makeAsyncIterator()
            while await phoneView.peerPresence().unitFileState != .enabled { _ = await iterator.next() }
        }
        #expect(await phone.peerWatchState.installed)
        _ = try await phone.transferUserInfo(["n": .integer(2)])
        let watch = try await pair.start(.watch)
        try await until("both transfers delivered", on: watch.appSignal) { ((try? await watch.pendingUserInfo()) ?? []).count == 2 }
        await pair.tearDown()
    }
}

/// Expects `operation` to fail with `code` (complication tests use it too).
func expectFailure(_ code: WCErrorCode, _ operation: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async {
    do {
        try await operation()
        Issue.record("succeeded, expected \(code.rawValue)", sourceLocation: sourceLocation)
    } catch let failure as WCFailure {
        #expect(failure.code == code, sourceLocation: sourceLocation)
    } catch {
        Issue.record("\(error), expected \(code.rawValue)", sourceLocation: sourceLocation)
    }
}

/// The kinds of the events on `stream` until `done` holds of them (bounded by `withTimeout`).
private func collect(
    _ stream: AsyncStream<DiagnosticEvent>, until done: @escaping @Sendable ([DiagnosticEvent.Kind]) -> Bool
) async throws -> [DiagnosticEvent.Kind] {
    try await withTimeout(.seconds(60), "events") {
        var kinds: [DiagnosticEvent.Kind] = []
        for await event in stream {
            kinds.append(event.kind)
            if done(kinds) { break }
        }
        return kinds
    }
}
