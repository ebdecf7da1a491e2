import Foundation
import Testing
import WatchPairCore
import WatchPairWire

@testable import WatchConnectivity
import WatchConnectivityTesting

/// "App not installed" (docs/Lifecycle.md) through Apple's API over both of `WCSessionPair`'s links.
@Suite("WCSession installation state", .timeLimit(.minutes(3)))
struct WCSessionInstallationTests {
    @Test("an uninstalled watch app: sessionWatchStateDidChange, 7006 at once, nothing queued, the watch directory removed; reinstalled, content flows",
          arguments: WCSessionTestMode.allCases)
    func uninstallAndReinstall(_ mode: WCSessionTestMode) async throws {
        let pair = try WCSessionPair(mode)
        let phoneDelegate = FullDelegate(), watchDelegate = FullDelegate(recordsStateChanges: false)
        pair.phone.delegate = phoneDelegate
        pair.watch.delegate = watchDelegate
        pair.phone.activate()
        #expect(await phoneDelegate.next() == .activated(.activated, errorCode: nil))
        pair.watch.activate()
        #expect(await watchDelegate.next() == .activated(.activated, errorCode: nil))
        await pair.waitUntilReachable()
        #expect(await phoneDelegate.next() == .reachability(true), "a launch is not a watch-state change")
        #expect(pair.phone.isWatchAppInstalled)
        let directory = try #require(pair.phone.watchDirectoryURL)
        #expect(FileManager.default.fileExists(atPath: directory.path))
        #expect(pair.watch.watchDirectoryURL == nil, "the phone's only")

        try await pair.setInstalled(.watch, false)
        let down = await phoneDelegate.next(2)
        #expect(Set(down) == [.watchStateChanged(installed: false), .reachability(false)], "\(down)")
        #expect(!pair.phone.isWatchAppInstalled)
        #expect(pair.phone.watchDirectoryURL == nil)
        #expect(!FileManager.default.fileExists(atPath: directory.path), "removed on uninstall")

        let transfer = pair.phone.transferUserInfo(["n": 1])
        #expect(!transfer.isTransferring)
        #expect(await phoneDelegate.next() == .finished(["n": .integer(1)], errorCode: 7006))
        let refused = #expect(throws: WCError.self) { try pair.phone.updateApplicationContext(["n": 1]) }
        #expect(refused?.code == .watchAppNotInstalled)
        let outcome = SendOutcome()
        pair.phone.sendMessage(["n": 1], replyHandler: outcome.replyHandler(), errorHandler: outcome.errorHandler())
        await outcome.wait()
        #expect(outcome.errors == [7006])
        #expect(pair.phone.outstandingUserInfoTransfers.isEmpty, "nothing queued")

        try await pair.setInstalled(.watch, true)
        let up = await phoneDelegate.next(2)
        #expect(Set(up) == [.watchStateChanged(installed: true), .reachability(true)], "\(up)")
        #expect(FileManager.default.fileExists(atPath: directory.path))
        pair.phone.transferUserInfo(["n": 2])
        #expect(await watchDelegate.nextContent() == .userInfo(["n": .integer(2)]))
        await pair.shutdown()
    }

    @Test("isComplicationEnabled follows the watch app's complication, with sessionWatchStateDidChange", arguments: WCSessionTestMode.allCases)
    func complication(_ mode: WCSessionTestMode) async throws {
        let pair = try WCSessionPair(mode)
        let phoneDelegate = FullDelegate(), watchDelegate = FullDelegate(recordsStateChanges: false)
        await pair.activate(phoneDelegate, watchDelegate)
        #expect(!pair.phone.isComplicationEnabled)
        try await pair.setComplicationEnabled(true)
        #expect(await phoneDelegate.next() == .watchStateChanged(installed: true))
        #expect(pair.phone.isComplicationEnabled)
        #expect(!pair.watch.isComplicationEnabled, "an iOS property")
        try await pair.setComplicationEnabled(false)
        #expect(await phoneDelegate.next() == .watchStateChanged(installed: true))
        #expect(!pair.phone.isComplicationEnabled)
        await pair.shutdown()
    }

    @Test("the counterpart's device off keeps it installed: no watch-state change, messages 7007", arguments: WCSessionTestMode.allCases)
    func deviceOff(_ mode: WCSessionTestMode) async throws {
        let pair = try WCSessionPair(mode)
        let phoneDelegate = FullDelegate(), watchDelegate = FullDelegate(recordsStateChanges: false)
        pair.phone.delegate = phoneDelegate
        pair.watch.delegate = watchDelegate  // delegates are weak: the test keeps them
        pair.phone.activate()
        #expect(await phoneDelegate.next() == .activated(.activated, errorCode: nil))
        #expect(pair.phone.isWatchAppInstalled, "installed before the watch ever ran")
        pair.watch.activate()
        #expect(await phoneDelegate.next() == .reachability(true))
        await pair.watch.shutdown()
        #expect(await phoneDelegate.next() == .reachability(false))
        #expect(pair.phone.isWatchAppInstalled)
        let outcome = SendOutcome()
        pair.phone.sendMessage(["n": 1], replyHandler: outcome.replyHandler(), errorHandler: outcome.errorHandler())
        await outcome.wait()
        #expect(outcome.errors == [7007])
        #expect(phoneDelegate.unread.isEmpty, "unexpected callbacks: \(phoneDelegate.unread)")
        await pair.shutdown()
    }
}
