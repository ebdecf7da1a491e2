import Foundation
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairTransport
import WatchPairWire

/// docs/Design.md, "Links and lifecycle": content queued by an app that has since stopped reaches the peer
/// the next time the peer runs; the starting peer launches the sender (socket activation) because the sender
/// announced it.
@Suite("content outlives its sender", .timeLimit(.minutes(3)))
struct ContentOutlivesSenderTests {
    @Test("userInfo and context queued by a stopped phone reach a watch that starts later")
    func stoppedSenderDelivers() async throws {
        let pair = try EnginePair(.inMemory)
        let announcements = pair.network.transport(for: .watch).peerChanges()
        // The watch is off (nothing listens): the phone's content queues.
        let phone = try await pair.start(.phone)
        _ = try await phone.transferUserInfo(["n": .integer(1)])
        _ = try await phone.updateApplicationContext(["mode": .string("night")])
        try await withTimeout(.seconds(60), "the phone announced its content") {
            for await _ in announcements where pair.network.isContentPending(.phone) { return }
        }
        await pair.stop(.phone)
        #expect(pair.network.isContentPending(.phone), "the announcement outlives the app")
        // The phone app is installed but not running: a connect launches it in the background.
        pair.network.setInstalled(.phone, true)
        let launches = Launches()
        pair.network.setActivationHandler(.phone) {
            launches.record()
            _ = try? await pair.start(.phone, launch: .background)
        }
        let watch = try await pair.start(.watch, launch: .background)
        try await until("the watch received the userInfo", on: watch.appSignal) {
            ((try? await watch.pendingUserInfo())?.count ?? 0) == 1
        }
        try await until("the watch received the context", on: watch.appSignal) {
            (try? await watch.pendingContext())?.payload == ["mode": .string("night")]
        }
        #expect(launches.count == 1)
        let relaunched = try #require(pair.engine(.phone))
        try await until("the phone finished its transfers", on: relaunched.contentSignal) {
            await relaunched.status().outstandingTransfers == 0
        }
        // Withdrawn after that by the engine's announcer task, which the content signal does not follow.
        try await until("the phone withdrew its announcement", on: pair.network.activity) {
            !pair.network.isContentPending(.phone)
        }
        await pair.tearDown()
    }

    @Test("a file alone, queued by a stopped phone, is announced and reaches a watch that starts later")
    func stoppedSenderDeliversFile() async throws {
        let pair = try EnginePair(.inMemory)
        let (path, bytes) = try FileChannelTests.makeFile(pair, "ride.fit", size: 3 << 20)
        let announcements = pair.network.transport(for: .watch).peerChanges()
        let phone = try await pair.start(.phone)
        let accepted = try await phone.transferFile(at: path, metadata: nil)
        try await withTimeout(.seconds(60), "the phone announced its file") {
            for await _ in announcements where pair.network.isContentPending(.phone) { return }
        }
        await pair.stop(.phone)
        pair.network.setInstalled(.phone, true)
        pair.network.setActivationHandler(.phone) { _ = try? await pair.start(.phone, launch: .background) }
        let watch = try await pair.start(.watch, launch: .background)
        try await until("the watch received the file", on: watch.appSignal) {
            ((try? await watch.pendingFiles()) ?? []).count == 1
        }
        let file = try #require(try await watch.pendingFiles().first)
        #expect(file.offer.transferId == accepted.transferId)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file.spoolPath)) == bytes)
        let relaunched = try #require(pair.engine(.phone))
        try await until("the phone finished its file", on: relaunched.contentSignal) {
            await relaunched.status().outstandingFiles == 0
        }
        // Withdrawn after that by the engine's announcer task, which the content signal does not follow.
        try await until("the phone withdrew its announcement", on: pair.network.activity) {
            !pair.network.isContentPending(.phone)
        }
        await pair.tearDown()
    }

    @Test("over Unix sockets the announcement is a file beside the link socket that the peer sees")
    func markerFile() async throws {
        let pair = try EnginePair(.unixSocket)
        let marker = pair.path(.phone, "sock") + UnixSocketTransportConfiguration.contentMarkerSuffix
        let watchView = pair.transport(for: .watch)
        let changes = watchView.peerChanges()
        let phone = try await pair.start(.phone)
        _ = try await phone.transferUserInfo(["n": .integer(1)])
        try await withTimeout(.seconds(60), "the watch's transport saw the announcement") {
            for await _ in changes where await watchView.peerPresence().contentPending { return }
        }
        #expect(FileManager.default.fileExists(atPath: marker))
        let watch = try await pair.start(.watch)
        try await until("delivered and acknowledged", on: phone.contentSignal) {
            await phone.status().outstandingTransfers == 0
        }
        try await withTimeout(.seconds(60), "the announcement was withdrawn") {
            var iterator = watchView.peerChanges().makeAsyncIterator()
            while await watchView.peerPresence().contentPending { _ = await iterator.next() }
        }
        #expect(!FileManager.default.fileExists(atPath: marker))
        _ = watch
        await pair.tearDown()
    }
}
