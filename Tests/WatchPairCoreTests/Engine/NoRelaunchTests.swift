import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// docs/Design.md, "Links and lifecycle": an idle peer never relaunches an app that went away. A killed app's
/// link closes while the kernel is still tearing it down, and its control socket still accepts a connect
/// then; a presence link made on that evidence is queued on its socket unit and starts it again after the
/// user's `stop`.
@Suite("an idle peer never relaunches an app that went away", .timeLimit(.minutes(3)))
struct NoRelaunchTests {
    @Test("the phone sees the link to a killed watch close, asks, gets no answer, and launches nothing")
    func killedWatchIsNotRelaunched() async throws {
        let pair = try EnginePair(.inMemory)
        let launched = Launches()
        pair.network.setInstalled(.watch, true)
        pair.network.setActivationHandler(.watch) { launched.record() }
        try await pair.start(.watch)
        let phone = try await pair.start(.phone)
        try await until("the phone's presence link", on: phone.stateSignal) { await phone.isReachable }

        let events = pair.network.events()
        // kill -9: the app stops serving, its link closes, and for a moment it still looks running.
        pair.network.setTornDown(.watch, true)
        await pair.stop(.watch)
        try await withTimeout(.seconds(60), "the phone asks whether the watch answers, or launches it") {
            for await event in events {
                if event == .asked(from: .phone, to: .watch, answered: false) || launched.count > 0 { return }
            }
        }
        #expect(launched.count == 0, "a presence link to a dying app was queued on its socket")
        // The teardown ends; nothing runs and nothing is owed, so the phone waits.
        pair.network.setTornDown(.watch, false)

        // The user starts the watch app again: the phone links to it, and nothing had launched it before.
        try await pair.start(.watch)
        try await until("the phone's presence link to the new watch", on: phone.stateSignal) { await phone.isReachable }
        #expect(launched.count == 0)
        await pair.tearDown()
    }
}
