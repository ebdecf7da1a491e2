import Foundation
import Synchronization
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

@testable import WatchConnectivity
import WatchConnectivityTesting

/// A delegate for file transfers: records received files (reading them during the callback, and where
/// they were) and finished transfers (keeping the objects).
final class FileDelegate: EventRecorder, WCSessionDelegate, @unchecked Sendable {
    let receivedPaths = Mutex<[String]>([])
    let finishedObjects = Mutex<[WCSessionFileTransfer]>([])
    /// The `localizedDescription` of each didFinish error.
    let errorMessages = Mutex<[String]>([])

    init() { super.init(recordsStateChanges: false) }

    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: (any Error)?) {
        record(.activated(activationState, errorCode: errorCode(error)))
    }
    func session(_ session: WCSession, didReceive file: WCSessionFile) {
        receivedPaths.withLock { $0.append(file.fileURL.path) }
        let bytes = (try? Data(contentsOf: file.fileURL)) ?? Data()
        record(.file(name: file.fileURL.lastPathComponent, metadata: file.metadata.map(plist), bytes: bytes))
    }
    func session(_ session: WCSession, didFinish fileTransfer: WCSessionFileTransfer, error: (any Error)?) {
        #expect(!fileTransfer.isTransferring)
        finishedObjects.withLock { $0.append(fileTransfer) }
        if let error { errorMessages.withLock { $0.append(error.localizedDescription) } }
        record(.fileFinished(name: fileTransfer.file.fileURL.lastPathComponent, errorCode: errorCode(error)))
    }
}

/// A file delegate whose `didReceive file` records the file, then blocks until `gate` is signalled (an
/// app still inside its callback).
final class BlockingFileDelegate: EventRecorder, WCSessionDelegate, @unchecked Sendable {
    let gate = DispatchSemaphore(value: 0)
    let receivedPaths = Mutex<[String]>([])

    init() { super.init(recordsStateChanges: false) }

    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: (any Error)?) {
        record(.activated(activationState, errorCode: errorCode(error)))
    }
    func session(_ session: WCSession, didReceive file: WCSessionFile) {
        receivedPaths.withLock { $0.append(file.fileURL.path) }
        record(.file(name: file.fileURL.lastPathComponent, metadata: nil, bytes: (try? Data(contentsOf: file.fileURL)) ?? Data()))
        gate.wait()
    }
}

@Suite("WCSession file transfers", .timeLimit(.minutes(3)))
struct WCSessionFileTests {
    /// `size` pseudo-random bytes written to `name` in `directory`.
    static func makeFile(in directory: String, _ name: String, size: Int, seed: UInt64 = 3) throws -> (url: URL, bytes: Data) {
        var state = seed
        let bytes = Data((0..<size).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        })
        let url = URL(fileURLWithPath: directory + "/" + name)
        try bytes.write(to: url)
        return (url, bytes)
    }

    /// An in-memory pair with file delegates, activated (the watch only when `startWatch`).
    static func activatedPair(startWatch: Bool = true) async throws -> (WCSessionPair, phone: FileDelegate, watch: FileDelegate) {
        let pair = try WCSessionPair(.inMemory)
        let phoneDelegate = FileDelegate(), watchDelegate = FileDelegate()
        pair.phone.delegate = phoneDelegate
        pair.watch.delegate = watchDelegate
        pair.phone.activate()
        #expect(await phoneDelegate.next() == .activated(.activated, errorCode: nil))
        if startWatch {
            pair.watch.activate()
            #expect(await watchDelegate.next() == .activated(.activated, errorCode: nil))
        }
        return (pair, phoneDelegate, watchDelegate)
    }

    @Test("a file arrives once with its metadata in the app's files/ directory and is removed when didReceive returns; didFinish gets the returned object")
    func fileArrives() async throws {
        let (pair, phoneDelegate, watchDelegate) = try await Self.activatedPair()
        let (url, bytes) = try Self.makeFile(in: pair.directory, "workout.fit", size: 3 * (1 << 20) + 17)
        let transfer = pair.phone.transferFile(url, metadata: ["kind": "workout", "at": Date(timeIntervalSinceReferenceDate: 5)])
        #expect(transfer.isTransferring)
        #expect(transfer.file.fileURL == url)
        #expect(plist(transfer.file.metadata ?? [:]) == ["kind": .string("workout"), "at": .date(Date(timeIntervalSinceReferenceDate: 5))])
        #expect(transfer.progress.totalUnitCount == Int64(bytes.count))
        try FileManager.default.removeItem(at: url)  // the session holds its own copy

        #expect(await watchDelegate.next() == .file(
            name: "workout.fit", metadata: ["kind": .string("workout"), "at": .date(Date(timeIntervalSinceReferenceDate: 5))], bytes: bytes))
        #expect(await phoneDelegate.next() == .fileFinished(name: "workout.fit", errorCode: nil))
        #expect(phoneDelegate.finishedObjects.withLock { $0 }.first === transfer)
        #expect(!transfer.isTransferring)
        #expect(transfer.progress.completedUnitCount == Int64(bytes.count))
        #expect(transfer.progress.fractionCompleted == 1)
        #expect(pair.phone.outstandingFileTransfers.isEmpty)

        let landed = try #require(watchDelegate.receivedPaths.withLock { $0 }.first)
        #expect(landed == pair.directory + "/watchd/files/workout.fit")
        // Files are handed over one at a time: when the next one arrives, the first is removed, here and
        // in the store.
        let (next, nextBytes) = try Self.makeFile(in: pair.directory, "next.fit", size: 100)
        pair.phone.transferFile(next, metadata: nil)
        #expect(await watchDelegate.next() == .file(name: "next.fit", metadata: nil, bytes: nextBytes))
        #expect(!FileManager.default.fileExists(atPath: landed))
        let engine = try #require(pair.watch.activeRuntime?.engine)
        #expect(try await engine.pendingFiles().map(\.offer.fileName).allSatisfy { $0 == "next.fit" })
        #expect(watchDelegate.unread.isEmpty)
        await pair.shutdown()
    }

    @Test("progress counts the bytes the receiver acknowledged: it holds while the receiver's acknowledgements are held")
    func progressFollowsAcknowledgements() async throws {
        let (pair, phoneDelegate, watchDelegate) = try await Self.activatedPair()
        let clock = try #require(pair.clock), faults = try #require(pair.faults)
        await pair.waitUntilReachable()
        let syncBytes = Int64(EngineConfiguration(role: .watch).fileSyncBytes)
        var applied = faults.appliedFaults.makeAsyncIterator()
        // The pair's own timers, idle and linked: the held write adds one sleeper to these.
        let sleepers = clock.sleeperCount
        // The watch's answer to the offer and its first acknowledgement pass; the second is held.
        faults.inject(.none)
        faults.inject(.none)
        faults.inject(.delay(.seconds(1)))
        let (url, bytes) = try Self.makeFile(in: pair.directory, "map.bin", size: 4 * (1 << 20))
        let transfer = pair.phone.transferFile(url, metadata: nil)
        #expect(transfer.isTransferring, "refused: \(phoneDelegate.errorMessages.withLock { $0 })")
        let engine = try #require(pair.phone.activeRuntime?.engine)
        await waitUntil(pair.phone.fileProgressSignal) { transfer.progress.completedUnitCount == syncBytes }
        #expect(await applied.next() == AppliedFault(fault: .delay(.seconds(1)), writeIndex: faults.writesObserved - 1))
        await clock.waitForSleepers(count: sleepers + 1)
        // Held: the phone has sent more, but only what the watch acknowledged counts.
        #expect(transfer.progress.completedUnitCount == syncBytes)
        #expect(transfer.isTransferring)
        #expect(transfer.progress.fractionCompleted > 0 && transfer.progress.fractionCompleted < 1)
        #expect(pair.phone.outstandingFileTransfers.first === transfer)
        // Last: a synchronous session call must not run on the engine's thread, where this resumes.
        #expect(await engine.outgoingFileProgress()?.acknowledged == UInt64(syncBytes))

        clock.advance(by: .seconds(1))
        #expect(await watchDelegate.next() == .file(name: "map.bin", metadata: nil, bytes: bytes))
        #expect(await phoneDelegate.next() == .fileFinished(name: "map.bin", errorCode: nil))
        #expect(!transfer.isTransferring)
        #expect(transfer.progress.completedUnitCount == Int64(bytes.count))
        await pair.shutdown()
    }

    @Test("bad input is refused through didFinish and nothing is queued: a missing file 7008 naming it, a directory 7008, metadata that is not a property list 7010, too large 7009")
    func badInput() async throws {
        let (pair, phoneDelegate, _) = try await Self.activatedPair(startWatch: false)
        let missing = URL(fileURLWithPath: pair.directory + "/nowhere.bin")
        let refused = pair.phone.transferFile(missing, metadata: nil)
        #expect(!refused.isTransferring)
        #expect(await phoneDelegate.next() == .fileFinished(name: "nowhere.bin", errorCode: 7008))
        #expect(phoneDelegate.finishedObjects.withLock { $0 }.last === refused)
        #expect(phoneDelegate.errorMessages.withLock { $0 }.last?.contains(missing.path) == true)
        pair.phone.transferFile(URL(fileURLWithPath: pair.directory), metadata: nil)
        #expect(await phoneDelegate.next() == .fileFinished(name: URL(fileURLWithPath: pair.directory).lastPathComponent, errorCode: 7008))
        pair.phone.transferFile(URL(string: "https://example.com/a.bin")!, metadata: nil)
        #expect(await phoneDelegate.next() == .fileFinished(name: "a.bin", errorCode: 7008))

        let (url, _) = try Self.makeFile(in: pair.directory, "ok.bin", size: 10)
        pair.phone.transferFile(url, metadata: ["handle": FileHandle.standardInput])
        #expect(await phoneDelegate.next() == .fileFinished(name: "ok.bin", errorCode: 7010))
        pair.phone.transferFile(url, metadata: ["big": String(repeating: "x", count: 70_000)])
        #expect(await phoneDelegate.next() == .fileFinished(name: "ok.bin", errorCode: 7009))
        #expect(pair.phone.outstandingFileTransfers.isEmpty)
        await pair.shutdown()
    }

    @Test("a file whose didReceive had not returned when the app stopped is delivered again at its next activation, from the same path")
    func redeliveredAfterStop() async throws {
        let (pair, phoneDelegate, _) = try await Self.activatedPair(startWatch: false)
        let blocking = BlockingFileDelegate()
        pair.watch.delegate = blocking
        pair.watch.activate()
        #expect(await blocking.next() == .activated(.activated, errorCode: nil))
        let (url, bytes) = try Self.makeFile(in: pair.directory, "log.txt", size: 70_000)
        let transfer = pair.phone.transferFile(url, metadata: nil)
        #expect(await blocking.next() == .file(name: "log.txt", metadata: nil, bytes: bytes))
        // The app stops while still inside the callback.
        let stopping = pair.watch.beginShutdown()
        blocking.gate.signal()
        await stopping?.value

        let delegate = FileDelegate()
        pair.watch.delegate = delegate
        pair.watch.activate()
        #expect(await delegate.next() == .activated(.activated, errorCode: nil))
        #expect(await delegate.next() == .file(name: "log.txt", metadata: nil, bytes: bytes))
        #expect(delegate.receivedPaths.withLock { $0 } == blocking.receivedPaths.withLock { $0 }, "landed once, at the same path")
        #expect(try FileManager.default.contentsOfDirectory(atPath: pair.directory + "/watchd/files").allSatisfy { $0 == "log.txt" })
        // The sender was told once, when the watch had the file (before its app did), with the object it holds.
        #expect(await phoneDelegate.next() == .fileFinished(name: "log.txt", errorCode: nil))
        #expect(phoneDelegate.finishedObjects.withLock { $0 }.map(ObjectIdentifier.init) == [ObjectIdentifier(transfer)])
        await pair.shutdown()
    }

    @Test("outstanding transfers are the returned objects; a cancelled one is never delivered and gets no didFinish")
    func outstandingAndCancel() async throws {
        let (pair, phoneDelegate, _) = try await Self.activatedPair(startWatch: false)
        let (first, _) = try Self.makeFile(in: pair.directory, "one.bin", size: 1000, seed: 1)
        let (second, _) = try Self.makeFile(in: pair.directory, "two.bin", size: 2000, seed: 2)
        let (third, thirdBytes) = try Self.makeFile(in: pair.directory, "three.bin", size: 3000, seed: 3)
        let one = pair.phone.transferFile(first, metadata: nil)
        let two = pair.phone.transferFile(second, metadata: ["n": 2])
        let three = pair.phone.transferFile(third, metadata: nil)
        let outstanding = pair.phone.outstandingFileTransfers
        #expect(outstanding.count == 3)
        #expect(outstanding[0] === one && outstanding[1] === two && outstanding[2] === three)
        #expect(outstanding.allSatisfy { $0.isTransferring && $0.progress.completedUnitCount == 0 })
        one.cancel()
        two.cancel()
        #expect(!one.isTransferring && !two.isTransferring)
        #expect(pair.phone.outstandingFileTransfers.map(\.file.fileURL.lastPathComponent) == ["three.bin"])

        let watchDelegate = FileDelegate()
        pair.watch.delegate = watchDelegate
        pair.watch.activate()
        #expect(await watchDelegate.next() == .activated(.activated, errorCode: nil))
        #expect(await watchDelegate.next() == .file(name: "three.bin", metadata: nil, bytes: thirdBytes))
        #expect(await phoneDelegate.next() == .fileFinished(name: "three.bin", errorCode: nil))
        #expect(phoneDelegate.unread.isEmpty)
        await pair.shutdown()
    }
}
