import Foundation
import Testing
import WatchPairCore
import WatchPairTransport
import WatchPairWire

/// A phone app killed without socket activation leaves its socket file behind and nothing on disk
/// changes, so inotify tells the watch nothing: the watch must notice at its next attempt and stop
/// reporting the phone reachable (a file nobody listens on is "device off": docs/Lifecycle.md).
@Suite("stale peer presence", .timeLimit(.minutes(3)))
struct StalePresenceTests {
    @Test("a message to a phone that died without a trace fails 7007 and ends the watch's reachability")
    func killedWithoutTrace() async throws {
        let pair = try EnginePair(.unixSocket)
        // The phone's link listener belongs to the test (as systemd's would), so closing it leaves the file.
        let listener = try ListeningSocket.bind(path: pair.path(.phone, "sock"), mode: 0o600, logger: quietLogger)
        var configuration = UnixSocketTransportConfiguration(
            listener: .adopt(fileDescriptor: listener.descriptor),
            peerLinkPath: pair.path(.watch, "sock"), peerControlPath: pair.path(.watch, "ctl"))
        configuration.contentMarkerPath = nil
        try await pair.start(.phone, transport: UnixSocketTransport(configuration: configuration, logger: quietLogger))
        let watch = try await pair.start(.watch, launch: .background)
        try await until("the watch sees the phone", on: watch.stateSignal) { await watch.isReachable }
        // "kill -9": the app and its control socket go (an inotify event the watch sees), then the
        // listener closes without unlinking its file (no event at all).
        await pair.stop(.phone)
        try await until("the watch sees the phone installed, not running", on: watch.contentSignal) {
            await watch.status().peerRunning == false
        }
        #expect(await watch.isReachable, "a listening socket: installed, so reachable for the watch")
        let events = watch.diagnostics.subscribe()
        close(listener.descriptor)
        #expect(FileManager.default.fileExists(atPath: pair.path(.phone, "sock")), "the socket file stays")
        await #expect(throws: WCFailure.self) {
            _ = try await watch.sendMessage(.dictionary(["ping": .bool(true)]), wantsReply: true, timeout: .seconds(5))
        }
        let changed = try await events.first(.reachabilityChanged)
        #expect(changed.message.contains("not reachable"))
        #expect(await watch.isReachable == false)
        await pair.tearDown()
    }
}
