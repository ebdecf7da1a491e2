import Foundation
import Testing
import WatchConnectivity
import WatchConnectivityTesting

/// docs/Watches.md: a `WCSession` phone app with several watches answers `watches`, `switch`, `pair` and
/// `unpair` on its control socket as phoned does, so `wcctl switch NAME` plays the user for an app too.
@Suite("A WCSession phone app's watches on its control socket", .timeLimit(.minutes(3)))
struct SessionWatchControlTests {
    @Test("watches and switch through the control socket: the app goes inactive, deactivates and re-activates on the new watch")
    func switchThroughTheControlSocket() async throws {
        let pair = try WCSessionPair(.unixSockets, watches: ["a", "b"])
        let phone = try await pair.activate(.phone)
        let control = try await ControlClient(path: pair.directory + "/phoned.ctl")
        let listed = try await control.request(["op": "watches"])
        #expect(listed?["active"] as? String == "a" && listed?["session"] as? String == "activated")
        let rows = listed?["watches"] as? [[String: Any]]
        #expect(rows?.map { $0["name"] as? String } == ["a", "b"])
        #expect(rows?.first?["bound"] as? Bool == true)
        let switched = try await control.request(["op": "switch", "watch": "b"])
        #expect(switched?["switching"] as? Bool == true && switched?["from"] as? String == "a")
        try await phone.first { $0 == .becameInactive }
        try await phone.first { $0 == .deactivated }
        await control.close()

        pair.phone.activate()
        #expect(try await phone.first(\.activationState) == .activated)
        let again = try await ControlClient(path: pair.directory + "/phoned.ctl")
        #expect(try await again.request(["op": "watches"])?["active"] as? String == "b")
        let unpaired = try await again.request(["op": "unpair", "watch": "a"])
        #expect(unpaired?["paired"] as? Bool == false)
        #expect(pair.watches.map(\.paired) == [false, true])
        await again.close()
        await pair.shutdown()
    }
}
