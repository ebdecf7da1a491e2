import Foundation
import Testing

extension ExampleApps {
    /// The shopping list on KeyedSync (Examples/PhoneSync, Examples/WatchSync) as real processes: whichever
    /// app starts first, and when their lifetimes never overlap, the watch ends with the phone's list.
    @Suite("KeyedSync examples", .serialized)
    struct KeyedSyncExampleProcessTests {
        static let built = Binaries.available("PhoneSync", "WatchSync")

        /// A `list` event holding `items`.
        static func holds(_ items: [String]) -> @Sendable ([String: Any]) -> Bool {
            { $0["items"] as? [String] == items }
        }

        @Test("phone first: the watch's handshake at launch brings the phone's list", .enabled(if: built, "run `swift build` first"))
        func phoneFirst() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let phone = try startExample("PhoneSync", role: "phone", in: directory.path)
            defer { phone.stop() }
            await phone.event("list", where: Self.holds(["milk", "eggs"]))
            phone.type("add bread")
            await phone.event("list", where: Self.holds(["milk", "eggs", "bread"]))
            let watch = try startExample("WatchSync", role: "watch", in: directory.path)
            defer { watch.stop() }
            await watch.event("list", where: Self.holds(["milk", "eggs", "bread"]))
            // The watch ticks an item off: `completed` is shared both ways.
            watch.type("done milk")
            await phone.event("list") { $0["completed"] as? [String] == ["milk"] }
            await phone.event("sync") { $0["event"] as? String == "syncReceived" }
        }

        @Test("watch first: its request waits for the phone app, and the list arrives when the phone starts", .enabled(if: built, "run `swift build` first"))
        func watchFirst() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let watch = try startExample("WatchSync", role: "watch", in: directory.path)
            defer { watch.stop() }
            await watch.event("sync") { $0["event"] as? String == "syncRequested" }
            let phone = try startExample("PhoneSync", role: "phone", in: directory.path)
            defer { phone.stop() }
            await watch.event("list", where: Self.holds(["milk", "eggs"]))
            phone.type("add jam")
            await watch.event("list", where: Self.holds(["milk", "eggs", "jam"]))
            await phone.event("sync") { $0["event"] as? String == "syncConfirmed" }
        }

        @Test(
            "lifetimes that never overlap: the phone changes its list and stops; the watch starts later and gets it",
            .enabled(if: built, "run `swift build` first"),
            .enabled(if: FileManager.default.isExecutableFile(atPath: socketActivate), "systemd-socket-activate is not installed")
        )
        func neverOverlapping() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let first = try startExample("PhoneSync", role: "phone", in: directory.path)
            first.type("add tea")
            await first.event("list", where: Self.holds(["milk", "eggs", "tea"]))
            first.stop()
            // The phone app is installed, not running; the watch starts and launches it in the background.
            let phone = try await installExample("PhoneSync", role: "phone", in: directory.path)
            let watch = try startExample("WatchSync", role: "watch", in: directory.path)
            await watch.event("list", where: Self.holds(["milk", "eggs", "tea"]))
            phone.stop()
            watch.stop()
            withExtendedLifetime(first) {}
        }
    }
}
