import Foundation
import Synchronization
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

@testable import WatchConnectivity
import WatchConnectivityTesting

/// A full delegate that also keeps the transfer objects passed to `didFinish`.
final class TransferDelegate: EventRecorder, WCSessionDelegate, @unchecked Sendable {
    let finishedObjects = Mutex<[WCSessionUserInfoTransfer]>([])

    init() { super.init(recordsStateChanges: false) }

    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: (any Error)?) {
        record(.activated(activationState, errorCode: errorCode(error)))
    }
    func session(_ session: WCSession, didReceiveUserInfo userInfo: [String: Any]) { record(.userInfo(plist(userInfo))) }
    func session(_ session: WCSession, didReceiveApplicationContext applicationContext: [String: Any]) {
        #expect(plist(session.receivedApplicationContext) == plist(applicationContext))
        record(.context(plist(applicationContext)))
    }
    func session(_ session: WCSession, didFinish userInfoTransfer: WCSessionUserInfoTransfer, error: (any Error)?) {
        #expect(!userInfoTransfer.isTransferring)
        finishedObjects.withLock { $0.append(userInfoTransfer) }
        record(.finished(plist(userInfoTransfer.userInfo), errorCode: errorCode(error)))
    }
}

@Suite("WCSession userInfo and application context")
struct WCSessionTransferTests {
    @Test("transfers arrive once, in order, and each sender is told didFinish with the same object", arguments: WCSessionTestMode.allCases)
    func transfersInOrder(_ mode: WCSessionTestMode) async throws {
        let pair = try await LinkedPair.start(mode, phoneDelegate: TransferDelegate(), watchDelegate: TransferDelegate())
        try await withTeardown {
            let watchDelegate = pair.watchDelegate as! TransferDelegate
            var sent: [WCSessionUserInfoTransfer] = []
            for index in 0..<20 {
                let transfer = pair.watch.transferUserInfo(["index": index, "at": Date(timeIntervalSinceReferenceDate: Double(index))])
                #expect(transfer.transferId != nil)
                #expect(!transfer.isCurrentComplicationInfo)
                sent.append(transfer)
            }
            for index in 0..<20 {
                #expect(await pair.phoneDelegate.next() == .userInfo(["index": .integer(Int64(index)), "at": .date(Date(timeIntervalSinceReferenceDate: Double(index)))]))
            }
            for index in 0..<20 {
                let event = await pair.watchDelegate.next()
                #expect(event == .finished(["index": .integer(Int64(index)), "at": .date(Date(timeIntervalSinceReferenceDate: Double(index)))], errorCode: nil))
            }
            let finished = watchDelegate.finishedObjects.withLock { $0 }
            #expect(finished.count == 20)
            for (a, b) in zip(sent, finished) { #expect(a === b) }
            #expect(sent.allSatisfy { !$0.isTransferring })
            #expect(pair.watch.outstandingUserInfoTransfers.isEmpty)
            #expect(pair.phoneDelegate.unread.isEmpty)
        } teardown: {
            await pair.stop()
        }
    }

    @Test("outstanding transfers are listed while the counterpart is away; a cancelled one is never delivered")
    func outstandingAndCancel() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let watchDelegate = TransferDelegate()
        let watch = await activatedSession(directory.configuration(.watch), delegate: watchDelegate)
        let first = watch.transferUserInfo(["n": 1])
        let second = watch.transferUserInfo(["n": 2])
        let third = watch.transferUserInfo(["n": 3])
        let outstanding = watch.outstandingUserInfoTransfers
        #expect(outstanding.count == 3)
        #expect(outstanding.first === first)
        #expect(outstanding.allSatisfy { $0.isTransferring })
        second.cancel()
        #expect(!second.isTransferring)
        #expect(watch.outstandingUserInfoTransfers.map { plist($0.userInfo) } == [["n": .integer(1)], ["n": .integer(3)]])

        let phoneDelegate = TransferDelegate()
        let phone = await activatedSession(directory.configuration(.phone), delegate: phoneDelegate)
        #expect(await phoneDelegate.next() == .userInfo(["n": .integer(1)]))
        #expect(await phoneDelegate.next() == .userInfo(["n": .integer(3)]))
        #expect(await watchDelegate.next() == .finished(["n": .integer(1)], errorCode: nil))
        #expect(await watchDelegate.next() == .finished(["n": .integer(3)], errorCode: nil))
        #expect(!first.isTransferring && !third.isTransferring)
        // A marker after the cancelled one: the next thing the phone receives.
        watch.transferUserInfo(["marker": true])
        #expect(await phoneDelegate.next() == .userInfo(["marker": .bool(true)]))
        await phone.shutdown()
        await watch.shutdown()
    }

    @Test("transfers that cannot be accepted report 7010 or 7009 through didFinish")
    func refusedTransfers() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = directory.configuration(.phone)
        configuration.limits = PayloadLimits(userInfo: 64)
        let delegate = TransferDelegate()
        let phone = await activatedSession(configuration, delegate: delegate)
        try await withTeardown {
            let invalid = phone.transferUserInfo(["url": URL(fileURLWithPath: "/")])
            #expect(!invalid.isTransferring)
            let event = await delegate.next()
            guard case .finished(_, let code) = event else {
                Issue.record("expected didFinish, got \(String(describing: event))")
                return
            }
            #expect(code == 7010)
            let large = phone.transferUserInfo(["big": String(repeating: "x", count: 100)])
            #expect(!large.isTransferring)
            #expect(await delegate.next() == .finished(["big": .string(String(repeating: "x", count: 100))], errorCode: 7009))
            #expect(phone.outstandingUserInfoTransfers.isEmpty)
        } teardown: {
            await phone.shutdown()
        }
    }

    @Test("application context: last value wins, identical updates are not delivered, it survives restarts")
    func applicationContext() async throws {
        let pair = try await LinkedPair.start(phoneDelegate: TransferDelegate(), watchDelegate: TransferDelegate())
        try pair.phone.updateApplicationContext(["items": ["milk", "eggs"], "version": 1])
        #expect(await pair.watchDelegate.next() == .context(["items": .array([.string("milk"), .string("eggs")]), "version": .integer(1)]))
        #expect(plist(pair.phone.applicationContext) == ["items": .array([.string("milk"), .string("eggs")]), "version": .integer(1)])
        #expect(plist(pair.watch.receivedApplicationContext) == plist(pair.phone.applicationContext))
        try pair.phone.updateApplicationContext(["items": ["milk", "eggs"], "version": 1])
        try pair.phone.updateApplicationContext(["version": 2])
        #expect(await pair.watchDelegate.next() == .context(["version": .integer(2)]))
        try pair.phone.updateApplicationContext([:])
        #expect(await pair.watchDelegate.next() == .context([:]))
        try pair.phone.updateApplicationContext(["version": 3])
        #expect(await pair.watchDelegate.next() == .context(["version": .integer(3)]))
        #expect(throws: WCError(.payloadUnsupportedTypes, message: "The value at 'n' is a NSNull, which is not a property-list type.")) {
            try pair.phone.updateApplicationContext(["n": NSNull()])
        }
        let error = #expect(throws: WCError.self) { try pair.phone.updateApplicationContext(["n": NSNull()]) }
        #expect(error?.code == .payloadUnsupportedTypes)

        // Restart both apps: both contexts are there at activation and nothing is delivered again.
        await pair.phone.shutdown()
        await pair.watch.shutdown()
        let watchDelegate = TransferDelegate()
        let watch = await activatedSession(pair.directory.configuration(.watch), delegate: watchDelegate)
        #expect(plist(watch.receivedApplicationContext) == ["version": .integer(3)])
        let phoneDelegate = TransferDelegate()  // the session holds its delegate weakly
        let phone = await activatedSession(pair.directory.configuration(.phone), delegate: phoneDelegate)
        #expect(plist(phone.applicationContext) == ["version": .integer(3)])
        try phone.updateApplicationContext(["version": 4])
        #expect(await watchDelegate.next() == .context(["version": .integer(4)]))
        #expect(phoneDelegate.unread.isEmpty)
        await phone.shutdown()
        await watch.shutdown()
        pair.directory.remove()
    }
}
